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
