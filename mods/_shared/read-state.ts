import { nodeCrypto } from '../../core/random.js'

/** What Read saw of one file: enough to tell later whether the file changed since. */
export interface ReadRecord {
  mtimeMs: number
  /** Hash of the file's bytes when read, so a touched-but-unchanged file still counts as fresh. */
  hash: string
  /** False when the model saw only a range of lines (offset/limit, or the default line cap). */
  whole: boolean
}

/**
 * The files each session has read, shared by the Read, Write and Edit mods. They are separate
 * mods (each removable by config), so no one of them can own the state through `$.state` — Edit
 * and Write must update it too. A module-level map keyed by session id is the one place all
 * three reach; each mod drops a session's entry on `session.end`.
 */
const sessions = new Map<string, Map<string, ReadRecord>>()

export const hashBytes = (bytes: Uint8Array): string => nodeCrypto().createHash('sha1').update(bytes).digest('hex')

export function recordRead(sessionId: string, path: string, record: ReadRecord): void {
  let files = sessions.get(sessionId)
  if (!files) sessions.set(sessionId, (files = new Map()))
  files.set(path, record)
}

export function lastRead(sessionId: string, path: string): ReadRecord | undefined {
  return sessions.get(sessionId)?.get(path)
}

/** The files a session has read, with whether it saw all of each (a compaction records them in the transcript). */
export function readFilesOf(sessionId: string): { path: string; whole: boolean }[] {
  return [...(sessions.get(sessionId) ?? [])].map(([path, r]) => ({ path, whole: r.whole }))
}

export function forgetSession(sessionId: string): void {
  sessions.delete(sessionId)
}

type OnDisk = { mtimeMs: number; bytes: Uint8Array }

/** Whether the file differs from what the session last read of it (a touch alone is no change). */
export function changedSinceRead(sessionId: string, path: string, current: OnDisk): boolean {
  const seen = lastRead(sessionId, path)
  return seen !== undefined && seen.mtimeMs !== current.mtimeMs && seen.hash !== hashBytes(current.bytes)
}

/**
 * Whether the model may change an existing file: it must have read it in this session, and the
 * file must not have changed on disk since (unless `changed` allows that: Edit checks its own
 * match). `whole` asks for a read of the entire file (Write replaces all of it). Returns the
 * refusal to show the model, or undefined when allowed.
 */
export function refusalToChange(
  sessionId: string,
  path: string,
  current: OnDisk,
  shown: string,
  options: { whole?: boolean; changed?: 'allow' } = {},
): string | undefined {
  const seen = lastRead(sessionId, path)
  if (!seen) return `${shown} has not been read in this session. Read it first, then try again.`
  if (options.whole && !seen.whole) {
    return `Only part of ${shown} was read, and writing it would replace all of it. Read the whole file first (or change it with Edit).`
  }
  if (options.changed !== 'allow' && changedSinceRead(sessionId, path, current)) {
    return `${shown} has changed on disk since it was read (by the user or another program). Read it again before changing it.`
  }
  return undefined
}
