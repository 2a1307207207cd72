import { hostname } from 'node:os'
import { takeLockFile } from '../_shared/lock-file.js'
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
 * Taken as the transcripts' lock is, through mods/_shared/lock-file.ts.
 */
export function takeOwnerLock(path: string, sessionId: string): (() => void) | undefined | 'no-lock' {
  const start = ownProcessStart()
  const me: Owner = { sessionId, pid: process.pid, ...(start ? { procStart: start } : {}), host: hostname() }
  let taken
  try {
    taken = takeLockFile(path, `${JSON.stringify(me)}\n`, (text) => {
      const owner = ownerOf(text)
      return owner !== undefined && holds(owner, path)
    })
  } catch {
    return 'no-lock'
  }
  if (typeof taken !== 'function') return undefined
  held.set(path, sessionId)
  const release = taken
  return () => {
    if (held.get(path) === sessionId) held.delete(path)
    release()
  }
}

function ownerOf(text: string): Owner | undefined {
  try {
    const o = JSON.parse(text) as Partial<Owner>
    return typeof o.sessionId === 'string' && Number.isInteger(o.pid) && o.pid! > 0 ? (o as Owner) : undefined
  } catch {
    return undefined
  }
}

function holds(owner: Owner, path: string): boolean {
  if (owner.pid === process.pid) return held.get(path) === owner.sessionId
  return writerAlive({ pid: owner.pid, start: owner.procStart, host: owner.host })
}
