import type { MemoryIndex } from './auto-memory.js'
import type { MemoryEntry } from './types.js'

/** Today in the local time zone, as YYYY-MM-DD. */
export function today(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`
}

function renderEntry(entry: MemoryEntry): string {
  const notes = entry.notes.map((n) => `\n\n(modloop: ${n})`).join('')
  return `Contents of ${entry.file_path} (${entry.scope}):\n\n${entry.content}${notes}`
}

/**
 * The context of the session's first user message: a `# claudeMd` section with every memory
 * file labelled by path and scope, broad to specific, then the auto memory's index after them
 * (as Claude Code places it), then `# currentDate`. Any may be absent.
 */
export function renderStartup(entries: readonly MemoryEntry[], date: string | undefined, index?: MemoryIndex): string | undefined {
  const sections: string[] = []
  if (entries.length > 0 || index) {
    sections.push([
      '# claudeMd',
      'The memory files below hold standing instructions from the user and the project. Follow them: they take precedence over your default behaviour. Where two disagree, the later (more specific) file wins.',
      ...entries.map(renderEntry),
      ...(index ? [`Contents of ${index.path} (your auto memory's index, kept across sessions):\n\n${index.content}`] : []),
    ].join('\n\n'))
  }
  if (date) sections.push(`# currentDate\nToday's date is ${date}.`)
  if (sections.length === 0) return undefined
  return [
    'Use the following context where it helps with the user\'s request:',
    ...sections,
    'This context may or may not matter for the task at hand; do not mention it unless it does.',
  ].join('\n')
}

/** Memory files loaded because a tool (or an @-mention) touched `trigger`, as one reminder. */
export function renderLazy(entries: readonly MemoryEntry[], trigger: string): string {
  return [
    `Memory files that apply to ${trigger} were loaded. Follow them while you work on files they cover.`,
    ...entries.map(renderEntry),
  ].join('\n\n')
}
