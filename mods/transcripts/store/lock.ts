import { mkdirSync, readFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { dirname } from 'node:path'
import { ModloopError } from '../../../core/errors.js'
import { lockPathOf } from './paths.js'
import { ownProcessStart, writerAlive } from '../../_shared/process-start.js'
import { takeLockFile } from '../../_shared/lock-file.js'

/**
 * The locks this process holds. A lock naming this process's own pid that is not here was left
 * by an earlier process that had the same pid (in a container, node is PID 1 on every run).
 */
const held = new Set<string>()

/**
 * One writer per session: `<session-id>.lock` beside the transcript, created exclusively (`wx`)
 * and naming its writer: pid, the process's start time and the host, one a line. A lock was left
 * by a crash, and is taken over, when its pid no longer runs, or runs but started at another
 * time (the pid was reused), or has exited and waits only to be reaped (a zombie), or is this
 * process's pid but was not taken by it. A lock from
 * another host cannot be checked and holds. Synchronous on purpose: it runs once per session and
 * must not interleave with itself.
 */
export function acquireSessionLock(sessionPath: string, sessionId: string): () => void {
  const path = lockPathOf(sessionPath)
  mkdirSync(dirname(path), { recursive: true })
  const taken = takeLockFile(path, `${process.pid}\n${ownProcessStart() ?? ''}\n${hostname()}\n`, (text) => {
    const pid = ownerOf(text)?.pid
    return pid !== undefined && holds(pid, path)
  })
  if (typeof taken !== 'function') throw lockedError(sessionId, ownerOf(taken.heldBy)?.pid ?? 0, path)
  held.add(path)
  return () => {
    held.delete(path)
    taken()
  }
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

interface Owner { pid: number; start?: string; host?: string }

/** The lock's writer; a lock of an older version holds only the pid. */
function ownerOf(text: string): Owner | undefined {
  const [pidLine, start, host] = text.split('\n').map((l) => l.trim())
  const pid = Number(pidLine)
  return Number.isInteger(pid) && pid > 0 ? { pid, ...(start ? { start } : {}), ...(host ? { host } : {}) } : undefined
}

function readOwner(path: string): Owner | undefined {
  try {
    return ownerOf(readFileSync(path, 'utf8'))
  } catch {
    return undefined
  }
}

function readPid(path: string): number | undefined {
  return readOwner(path)?.pid
}

/** Whether the lock at `path` naming `pid` is still held. */
function holds(pid: number, path: string): boolean {
  if (pid === process.pid) return held.has(path)
  const owner = readOwner(path)
  return writerAlive({ pid, start: owner?.start, host: owner?.host })
}
