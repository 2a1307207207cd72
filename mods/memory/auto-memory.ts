import { readFile, stat } from 'node:fs/promises'
import { dirname, isAbsolute, join, resolve } from 'node:path'
import { envFalse, envTrue } from '../../core/env.js'
import type { SettingsSource } from '../permissions/settings-sources.js'
import { projectDir } from '../transcripts/store/paths.js'

/** The index the model keeps in its memory directory; the rest are topic files it reads when it needs them. */
export const INDEX_FILE = 'MEMORY.md'

/**
 * Whether auto memory is on, as Claude Code decides it: CLAUDE_CODE_DISABLE_AUTO_MEMORY when it
 * says yes (`1`, `true`, `yes`, `on`) turns it off and when it says no (`0`, `false`, `no`, `off`)
 * turns it on over the settings; else `autoMemoryEnabled`, the last source that sets it winning; on
 * when nothing says.
 */
export function autoMemoryOn(env: (name: string) => string | undefined, sources: readonly SettingsSource[]): boolean {
  const switched = env('CLAUDE_CODE_DISABLE_AUTO_MEMORY')
  if (envTrue(switched)) return false
  if (envFalse(switched)) return true
  return sources.findLast((s) => typeof s.settings.autoMemoryEnabled === 'boolean')?.settings.autoMemoryEnabled !== false
}

export interface MemoryDirInput {
  sources: readonly SettingsSource[]
  /** The repository root holding cwd, or cwd outside one: every folder and worktree of a repository shares one memory. */
  project: string
  home: string
  env: Record<string, string | undefined>
  /** Whether a project's own settings may move the directory (a trusted workspace). */
  trusted: () => Promise<boolean>
  warn: (message: string) => void
}

/**
 * The memory directory: `autoMemoryDirectory` from the last source that sets it (absolute, or
 * `~/` for the home; a relative one is named in a warning and ignored, as Claude Code ignores it),
 * else `memory/` in the project's folder beside its transcripts. A project's own settings file may
 * move it only in a trusted workspace: a cloned repository could otherwise point the writes the
 * model makes unasked at any folder.
 */
export async function memoryDir(input: MemoryDirInput): Promise<string> {
  for (const { source, settings } of [...input.sources].reverse()) {
    const value = settings.autoMemoryDirectory
    if (value === undefined) continue
    const path = typeof value === 'string' ? (value.startsWith('~/') ? join(input.home, value.slice(2)) : value) : ''
    if (!isAbsolute(path)) {
      input.warn(`${source.label}: "autoMemoryDirectory" must be an absolute path or start with ~/; ignored`)
      continue
    }
    if (source.projectLevel && !(await input.trusted())) {
      input.warn(`${source.label}: "autoMemoryDirectory" is ignored in an untrusted workspace (modloop trust)`)
      continue
    }
    return resolve(path)
  }
  return join(projectDir(await mainWorktree(input.project), input.env), 'memory')
}

/**
 * A linked worktree's main checkout (its `.git` file names `<main>/.git/worktrees/<name>`), so
 * all of a repository's worktrees share one memory, as in Claude Code; any other root is itself.
 */
async function mainWorktree(root: string): Promise<string> {
  const dotGit = join(root, '.git')
  if (!(await stat(dotGit).then((s) => s.isFile(), () => false))) return root
  const gitdir = /^gitdir:\s*(.+?)\s*$/m.exec(await readFile(dotGit, 'utf8').catch(() => ''))?.[1]
  const at = gitdir && resolve(root, gitdir)
  if (!at || !/[\\/]\.git[\\/]worktrees[\\/][^\\/]+$/.test(at)) return root
  return dirname(dirname(dirname(at)))
}

/** The index as the model reads it, and what of it was left out. */
export interface MemoryIndex {
  path: string
  content: string
}

const MAX_LINES = 200
const MAX_BYTES = 25_000

/**
 * MEMORY.md's first 200 lines, within 25,000 bytes (whole lines), as the spec has it (loop-and-sdk
 * §4.3); a cut ends with a note naming what was left out and where it starts, so the model knows
 * to Read the rest and to keep the index short. Undefined when the file is missing or empty.
 */
export async function readIndex(dir: string): Promise<MemoryIndex | undefined> {
  const path = join(dir, INDEX_FILE)
  const text = await readFile(path, 'utf8').catch(() => undefined)
  if (text === undefined || text.trim() === '') return undefined
  return { path, content: cutIndex(text) }
}

export function cutIndex(text: string): string {
  const lines = text.replace(/\r?\n$/, '').split(/\r?\n/)
  let bytes = 0
  let kept = 0
  while (kept < lines.length && kept < MAX_LINES) {
    const size = Buffer.byteLength(lines[kept]!, 'utf8') + 1
    if (bytes + size > MAX_BYTES) break
    bytes += size
    kept++
  }
  if (kept === lines.length) return text.trimEnd()
  // One line past the byte limit on its own: keep its start rather than nothing.
  const head = kept === 0 ? [Buffer.from(lines[0]!, 'utf8').subarray(0, MAX_BYTES).toString('utf8').replace(/\uFFFD$/, '')] : lines.slice(0, kept)
  const why = kept === MAX_LINES ? `it has ${lines.length} lines, past the ${MAX_LINES} read at start` : `it is ${Buffer.byteLength(text, 'utf8').toLocaleString('en-US')} bytes, past the ${MAX_BYTES.toLocaleString('en-US')} read at start`
  const first = lines[kept]!
  const quote = first.length > 80 ? `${first.slice(0, 80)}...` : first
  return [
    ...head,
    '',
    `(modloop: ${INDEX_FILE} was cut: ${why}. Lines ${kept + 1} to ${lines.length} ("${quote}") were left out; Read the file for them. Keep each index entry to one short line and put the detail in topic files.)`,
  ].join('\n')
}
