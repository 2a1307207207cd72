import { readdirSync, readFileSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'

const POLL_MS = 15
const AFTER_KILL_MS = 500

/** Sends a signal to every process of a group; false when the group no longer exists. */
function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Whether a live (non-zombie) process is left in the group. Dead orphans stay visible to
 * `kill(-pgid, 0)` until init reaps them, which can take seconds in containers, so on Linux the
 * process table is read instead of waiting for the reaper.
 */
export function groupAlive(pgid: number): boolean {
  if (!signalGroup(pgid, 0)) return false
  if (process.platform !== 'linux') return true
  try {
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue
      let stat: string
      try {
        stat = readFileSync(`/proc/${name}/stat`, 'utf8')
      } catch {
        continue
      }
      // Fields after the command name (which may hold spaces and parens): state, ppid, pgrp, …
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      if (Number(pgrp) === pgid && state !== 'Z' && state !== 'X') return true
    }
    return false
  } catch {
    return true
  }
}

async function goneWithin(pgid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms
  for (;;) {
    if (!groupAlive(pgid)) return true
    if (Date.now() >= deadline) return false
    await sleep(POLL_MS)
  }
}

/**
 * Ends a hook's process group as a tree: SIGTERM so EXIT traps can run, then SIGKILL for whatever
 * is left after the grace period. Resolves once no live process remains, or after a bounded wait.
 */
export async function killGroup(pgid: number, graceMs: number): Promise<void> {
  if (!signalGroup(pgid, 'SIGTERM')) return
  if (await goneWithin(pgid, graceMs)) return
  signalGroup(pgid, 'SIGKILL')
  await goneWithin(pgid, AFTER_KILL_MS)
}
