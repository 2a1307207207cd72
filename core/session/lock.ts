import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs'
import { dirname } from 'node:path'
import { ModloopError } from '../errors.js'
import { lockPathOf } from './paths.js'

/**
 * The locks this process holds. A lock naming this process's own pid that is not here was left
 * by an earlier process that had the same pid (in a container, node is PID 1 on every run).
 */
const held = new Set<string>()

/**
 * One writer per session: `<session-id>.lock` beside the transcript, created exclusively (`wx`)
 * and holding the writer's pid. A lock whose pid no longer runs (or is this process's pid but was
 * not taken by it) was left by a crash and is taken over. Synchronous on purpose: it runs once per session and must not interleave with itself.
 */
export function acquireSessionLock(sessionPath: string, sessionId: string): () => void {
  const path = lockPathOf(sessionPath)
  mkdirSync(dirname(path), { recursive: true })
  for (let attempt = 0; attempt < 3; attempt++) {
    let fd: number
    try {
      fd = openSync(path, 'wx')
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
      const pid = readPid(path)
      if (pid !== undefined && holds(pid, path)) throw lockedError(sessionId, pid, path)
      // The holder is gone (or the file is debris): remove it, unless another process took it over meanwhile.
      if (readPid(path) === pid) {
        try { unlinkSync(path) } catch { /* removed by that other process */ }
      }
      continue
    }
    writeSync(fd, String(process.pid))
    closeSync(fd)
    held.add(path)
    let released = false
    return () => {
      if (released) return
      released = true
      held.delete(path)
      if (readPid(path) === process.pid) {
        try { unlinkSync(path) } catch { /* already gone */ }
      }
    }
  }
  throw lockedError(sessionId, readPid(path) ?? 0, path)
}

/** Why a session may not run: the lock it lost, with the lock file. */
export interface SessionRefusal { message: string; file?: string }

declare module '../mod/capabilities.js' {
  interface Capabilities {
    /**
     * Whether the mod that records sessions lost a session's lock as it started (two new sessions
     * given one id, or two resumes, at the same moment). Core then refuses the session as it refuses
     * a resume of a locked one — a session that ran on unrecorded would lose what it did.
     */
    sessionRefusal: (sessionId: string) => SessionRefusal | undefined
  }
}

/** The locked-session error for `sessionId`, if the capability answers one. */
export function refusalOf(refusal: ((sessionId: string) => SessionRefusal | undefined) | undefined, sessionId: string): ModloopError | undefined {
  const r = refusal?.(sessionId)
  return r ? new ModloopError('MODLOOP_ERR_SESSION_LOCKED', r.message, r.file !== undefined ? { file: r.file } : {}) : undefined
}

/** The pid of a live process holding the session's lock, if any. */
export function lockHolder(sessionPath: string): number | undefined {
  const path = lockPathOf(sessionPath)
  const pid = readPid(path)
  return pid !== undefined && holds(pid, path) ? pid : undefined
}

/** Refuses (MODLOOP_ERR_SESSION_LOCKED) when a live process writes the session. */
export function assertUnlocked(sessionPath: string, sessionId: string): void {
  const holder = lockHolder(sessionPath)
  if (holder !== undefined) throw lockedError(sessionId, holder, lockPathOf(sessionPath))
}

function lockedError(sessionId: string, pid: number, path: string): ModloopError {
  const who = pid === process.pid ? 'this process (another query of it still runs that session)' : `process ${pid}`
  return new ModloopError('MODLOOP_ERR_SESSION_LOCKED', `session ${sessionId} is in use by ${who}; wait for it to end, or fork it with --fork-session (lock: ${path})`, { file: path })
}

function readPid(path: string): number | undefined {
  try {
    const pid = Number(readFileSync(path, 'utf8').trim())
    return Number.isInteger(pid) && pid > 0 ? pid : undefined
  } catch {
    return undefined
  }
}

/** Whether the lock at `path` naming `pid` is still held. */
function holds(pid: number, path: string): boolean {
  return pid === process.pid ? held.has(path) : isAlive(pid)
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}
