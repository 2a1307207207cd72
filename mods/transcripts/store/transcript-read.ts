import { readFile } from 'node:fs/promises'
import { ModloopError, describeError } from '../../../core/errors.js'
import { entrySchema, isMessageEntry, type MessageEntry, type TranscriptEntry } from './entry.js'

export interface ReadTranscript {
  entries: TranscriptEntry[]
  /** Lines that were skipped, each with why: a torn last line after a crash, or a damaged line. */
  warnings: string[]
}

/**
 * Reads a transcript file. A last line without its newline was being written when the process
 * died: it was never acknowledged, so it is dropped with a warning. Any other unreadable line is
 * skipped with a warning naming its number; the rest of the file still loads.
 */
export async function readTranscript(path: string): Promise<ReadTranscript> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (err) {
    throw new ModloopError('MODLOOP_ERR_SESSION', `cannot read the session transcript ${path}: ${describeError(err)}`, { file: path, cause: err })
  }
  return parseTranscript(text, path)
}

export function parseTranscript(text: string, path = 'transcript'): ReadTranscript {
  const entries: TranscriptEntry[] = []
  const warnings: string[] = []
  const lines = text.split('\n')
  const torn = !text.endsWith('\n') ? lines.length - 1 : -1
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    if (line.trim() === '') continue
    let value: unknown
    try {
      value = JSON.parse(line)
    } catch {
      warnings.push(i === torn
        ? `${path}: ignored a torn last line (${line.length} characters): the process stopped while writing it`
        : `${path}: line ${i + 1} is not valid JSON; skipped`)
      continue
    }
    const parsed = entrySchema().safeParse(value)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      warnings.push(`${path}: line ${i + 1} is not a transcript entry (${[...(issue?.path ?? [])].join('.') || 'line'}: ${issue?.message}); skipped`)
      continue
    }
    entries.push(parsed.data as TranscriptEntry)
  }
  return { entries, warnings }
}

/**
 * The conversation the transcript holds: the path from `leafUuid` (default: the last message
 * line) back along `parentUuid` to the root, in order. Lines off that path (retracted responses,
 * abandoned branches) are left out, and so are subagents' lines unless `sidechain` asks for them
 * (reading a subagent's own file).
 */
export function chainTo(entries: readonly TranscriptEntry[], leafUuid?: string, options: { sidechain?: boolean } = {}): MessageEntry[] {
  const byUuid = new Map<string, MessageEntry>()
  // Each message line's place in the file, to step over a parent that is missing.
  const before = new Map<string, MessageEntry | undefined>()
  let last: MessageEntry | undefined
  for (const e of entries) {
    if (!isMessageEntry(e) || (e.isSidechain === true) !== (options.sidechain === true)) continue
    byUuid.set(e.uuid, e)
    before.set(e.uuid, last)
    last = e
  }
  const leaf = leafUuid === undefined ? last : byUuid.get(leafUuid)
  if (leafUuid !== undefined && !leaf) {
    throw new ModloopError('MODLOOP_ERR_SESSION', `no message with uuid ${leafUuid} in this session (resumeSessionAt)`, { field: 'resumeSessionAt' })
  }
  const chain: MessageEntry[] = []
  const seen = new Set<string>()
  for (let e = leaf; e && !seen.has(e.uuid); e = parentOf(e, byUuid, before)) {
    seen.add(e.uuid)
    chain.push(e)
  }
  return chain.reverse()
}

/**
 * A line's parent; when the parent is not in the file (its line was damaged and skipped), the
 * message line written before it, which is where the writer's chain runs: stopping there instead
 * would silently drop everything before the damaged line from the resumed conversation.
 */
function parentOf(e: MessageEntry, byUuid: ReadonlyMap<string, MessageEntry>, before: ReadonlyMap<string, MessageEntry | undefined>): MessageEntry | undefined {
  if (!e.parentUuid) return undefined
  return byUuid.get(e.parentUuid) ?? before.get(e.uuid)
}

/** Lines of a chain whose parent was missing and that chainTo linked to the line before them instead. */
export function bridgedLinks(chain: readonly MessageEntry[]): number {
  return chain.filter((e, i) => i > 0 && e.parentUuid !== chain[i - 1]!.uuid).length
}
