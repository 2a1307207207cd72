import type * as ChildProcessModule from 'node:child_process'
import { createRequire } from 'node:module'

let loaded: typeof ChildProcessModule | undefined

/**
 * node:child_process, loaded on first use: with net, dgram and the stream machinery it brings, it
 * costs ~5–10 ms of start-up, and most runs spawn nothing (no Bash call, no repository, no hook).
 * The one place modloop reaches it: the runner's hooks and the mods that spawn (Bash, Grep, git).
 */
export function childProcess(): typeof ChildProcessModule {
  loaded ??= createRequire(import.meta.url)('node:child_process') as typeof ChildProcessModule
  return loaded
}

/**
 * Calls `fn` once `ms` have passed and the event loop has since read whatever its pipes hold: how
 * long to wait for a child's stdout and stderr to close after it exited (a process it left in the
 * background may hold them open). A plain timer is not enough: after a stall of the loop (a busy
 * host, a long synchronous step) the overdue timer runs before the poll that would read the output
 * the child wrote before it exited, and that output was lost. An immediate runs after that poll.
 */
export function afterPipeGrace(ms: number, fn: () => void): NodeJS.Timeout {
  return setTimeout(() => setImmediate(fn), ms)
}
