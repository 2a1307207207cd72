import { createRequire } from 'node:module'
import { join } from 'node:path'
import { PACKAGE_ROOT } from '../core/version.js'

/**
 * V8 settings for a long session, applied once it is under way. Left alone, V8 grows the young
 * generation to 32 MB and lets the old one fill with dead tool results to several times what is
 * held before it collects: a 1,000-round session's peak RSS climbed 82 → 160 MB while ~11 MB was
 * live. With the young generation kept at its start size and the old one allowed 30% over what
 * the last collection kept, it levels off at ~100 MB by round 300 for the same time per round
 * (bench/compaction.js). A headless run's launcher keeps the young generation small from the
 * start already (bin/code-cache.cjs: its page faults saved cost more than the scavenges added);
 * a terminal session's starts as V8 has it. V8 reads both
 * flags at each collection, so setting them in a running process takes effect. The CLI owns its
 * process; query() leaves an embedding application's V8 as it is. Set through the code-cache
 * loader, which keeps its caches under the flags a cold start runs with. A headless run also
 * gets V8's optimising compilers back here, which its launcher started without (bin/modloop.cjs).
 */
// `--max-opt=0` at launch also turns V8's baseline and optimising compilers off (it implies
// --no-sparkplug and --no-turbofan), and raising it again does not turn them back on: without the
// last two, a headless session ran every round interpreted (a hot loop 3-4x slower).
export const LONG_SESSION_V8_FLAGS = ['--semi-space-growth-factor=1', '--heap-growing-percent=30', '--max-opt=999', '--sparkplug', '--turbofan'] as const
// The same flags as the run started with (Node 20's V8 11.3 defaults, or what the launcher set): set
// back at exit, so the code cache written then carries the flags the next start runs with
// (bin/code-cache.cjs; test/cli/code-cache.test.ts).
const V8_DEFAULTS = ['--semi-space-growth-factor=2', '--heap-growing-percent=0', '--max-opt=999'] as const
const COMPILERS = ['sparkplug', 'turbofan'] as const

interface CodeCache {
  setV8Flags(flags: readonly string[], defaults: readonly string[]): void
  launchFlag(name: string): string | undefined
}

let applied = false

/**
 * Whether a headless session is under way once this assistant message arrived (`before`: how
 * many came earlier): its turn goes on to tool rounds, or a second answer came. A one-turn
 * answer ends the run first; tuned then, its optimising compiles took a one-turn run's peak RSS
 * from 66.6 to 70.4 MiB for no time saved (bench/cold-run.js).
 */
export function underWay(m: { message: { content: readonly { type: string }[] } }, before: number): boolean {
  return before > 0 || m.message.content.some((b) => b.type === 'tool_use')
}

/** Applies the flags once, in a process the CLI owns; answers whether this call applied them. */
export function tuneHeapForLongSession(io: { ownsProcess?: boolean }): boolean {
  if (applied || !io.ownsProcess) return false
  applied = true
  const cache = createRequire(import.meta.url)(join(PACKAGE_ROOT, 'bin', 'code-cache.cjs')) as CodeCache
  const defaults: string[] = V8_DEFAULTS.map((flag) => cache.launchFlag(flag.slice(0, flag.indexOf('='))) ?? flag)
  // The compilers as the launch left them: off under a launch --max-opt below 3 (their tiers), else on.
  const maxOpt = Number(cache.launchFlag('--max-opt')?.split('=')[1] ?? 999)
  for (const compiler of COMPILERS) defaults.push(maxOpt < 3 ? `--no-${compiler}` : `--${compiler}`)
  cache.setV8Flags(LONG_SESSION_V8_FLAGS, defaults)
  return true
}
