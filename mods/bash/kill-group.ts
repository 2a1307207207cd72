import { readdir, readFile } from 'node:fs/promises'
import { setTimeout as sleep } from 'node:timers/promises'

const POLL_MS = 20

/** Sends `signal` to every process of the group; false when the group no longer exists. */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  // A group that is gone (the usual answer after a command) throws ESRCH: without a stack to
  // capture, the error costs a tenth as much.
  const limit = Error.stackTraceLimit
  Error.stackTraceLimit = 0
  try {
    process.kill(-pgid, signal)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  } finally {
    Error.stackTraceLimit = limit
  }
}

/**
 * Whether a process of the group still runs. A dead process stays in its group as a zombie until
 * its parent reaps it, and orphans wait for init, which may take seconds; on Linux /proc tells
 * zombies apart, so a kill does not wait on init. Elsewhere the group's existence is the answer.
 */
export async function groupRunning(pgid: number): Promise<boolean> {
  if (!signalGroup(pgid, 0)) return false
  if (process.platform !== 'linux') return true
  const pids = await readdir('/proc').catch(() => undefined)
  if (!pids) return true
  const states = await Promise.all(pids.filter((p) => /^\d+$/.test(p)).map((p) => readFile(`/proc/${p}/stat`, 'latin1').catch(() => '')))
  return states.some((stat) => {
    // "pid (comm) state ppid pgrp …": comm may hold spaces and parentheses, so split after the last ")".
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return Number(fields[2]) === pgid && fields[0] !== 'Z' && fields[0] !== 'X'
  })
}

async function stoppedWithin(pgid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms
  for (;;) {
    if (!(await groupRunning(pgid))) return true
    if (Date.now() >= deadline) return false
    await sleep(POLL_MS)
  }
}

/**
 * Ends a process group as a tree: SIGTERM, then SIGKILL for whatever still runs after the grace
 * period. Resolves once nothing of the group runs (or after a bounded wait past SIGKILL).
 */
export async function killGroup(pgid: number, graceMs = 2_000): Promise<void> {
  if (!signalGroup(pgid, 'SIGTERM')) return
  if (await stoppedWithin(pgid, graceMs)) return
  signalGroup(pgid, 'SIGKILL')
  await stoppedWithin(pgid, 1_000)
}
