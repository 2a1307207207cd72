import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs'
import { hostname } from 'node:os'
import { ownProcessStart, writerAlive } from '../_shared/process-start.js'

/** Where the lock of a jobs file is: beside it. */
export const ownerLockOf = (jobsFile: string) => jobsFile.replace(/\.json$/, '.lock')

/** The session owning each lock this process holds: two sessions of one process share the pid. */
const held = new Map<string, string>()

interface Owner { sessionId: string; pid: number; procStart?: string; host?: string }

/**
 * Takes the lock that makes `sessionId` the one session running the project's durable jobs:
 * created exclusively (`wx`), naming the session, its pid, the process's start and the host.
 * A lock whose owner is gone (its pid no longer runs, runs another process, is a zombie, or is
 * this process but no live session of it) is taken over. A lock from another host cannot be
 * checked and holds. Answers the release, undefined when another session owns the jobs, or
 * 'no-lock' when no lock can be made there at all (no folder, no permission): no session can own
 * the jobs then, and each runs them as before there were owners.
 * Synchronous, as the transcripts' lock (mods/transcripts/store/lock.ts), so it never interleaves with itself.
 */
export function takeOwnerLock(path: string, sessionId: string): (() => void) | undefined | 'no-lock' {
  for (let attempt = 0; attempt < 3; attempt++) {
    let fd: number
    try {
      fd = openSync(path, 'wx')
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return 'no-lock'
      const owner = readOwner(path)
      if (owner && holds(owner, path)) return undefined
      // Gone, or debris: remove it, unless another session took it over meanwhile.
      if (readOwner(path)?.sessionId === owner?.sessionId) {
        try { unlinkSync(path) } catch { /* removed by that other session */ }
      }
      continue
    }
    const owner: Owner = { sessionId, pid: process.pid, ...(ownProcessStart() ? { procStart: ownProcessStart() } : {}), host: hostname() }
    writeSync(fd, `${JSON.stringify(owner)}\n`)
    closeSync(fd)
    held.set(path, sessionId)
    let released = false
    return () => {
      if (released) return
      released = true
      if (held.get(path) === sessionId) held.delete(path)
      if (readOwner(path)?.sessionId === sessionId) {
        try { unlinkSync(path) } catch { /* already gone */ }
      }
    }
  }
  return undefined
}

function readOwner(path: string): Owner | undefined {
  try {
    const o = JSON.parse(readFileSync(path, 'utf8')) as Partial<Owner>
    return typeof o.sessionId === 'string' && Number.isInteger(o.pid) && o.pid! > 0 ? (o as Owner) : undefined
  } catch {
    return undefined
  }
}

function holds(owner: Owner, path: string): boolean {
  if (owner.pid === process.pid) return held.get(path) === owner.sessionId
  return writerAlive({ pid: owner.pid, start: owner.procStart, host: owner.host })
}
