import { BackgroundHooks } from './background-hooks.js'
import { HeldGroups } from './held-groups.js'
import type { HookEventName } from './events.js'
import type { HooksConfig } from './hooks-config.js'
import type { HookRunResult } from './result-types.js'
import { runHooks, type RunHooksOptions } from './run-hooks.js'
import { selectHandlers, type Selection } from './select-handlers.js'
import { SpareSh } from './spare-sh.js'

export type HooksRunnerInit = Omit<RunHooksOptions, 'background' | 'heldGroups' | 'onceUsed' | 'signal' | 'spare'>

export interface HooksRunner {
  readonly config: HooksConfig
  /** Async hooks of every firing report here. */
  readonly background: BackgroundHooks
  /**
   * The shell started ahead for the next shell-form command hook. A host calls `prepare()` while
   * it waits on something else (a model streaming its answer): the hook then starts without a
   * fork of the host in its way.
   */
  readonly spare: SpareSh
  /** Fires one event; per-call options (signal, cwd, …) override the runner's. */
  run(event: HookEventName, input: Record<string, unknown>, options?: Partial<RunHooksOptions>): Promise<HookRunResult>
  /** Which handlers would run for this input, without running them (a dry run for listings and tests). */
  select(event: HookEventName, input: Record<string, unknown>): Selection
  /**
   * Kills async hooks still running and waits until each is finalised as cancelled; ends what
   * hooks left running that still held their output pipes.
   */
  close(): Promise<void>
}

/**
 * A session's hook runner: `runHooks` with the session-long state bound in — the config, the
 * background hooks collector and the set of `once` handlers already run.
 */
export function createHooksRunner(init: HooksRunnerInit): HooksRunner {
  const background = new BackgroundHooks()
  const heldGroups = new HeldGroups()
  const onceUsed = new Set<number>()
  const spare = new SpareSh()
  return {
    config: init.config,
    background,
    spare,
    run: (event, input, options = {}) => runHooks(event, input, { ...init, background, heldGroups, onceUsed, spare, ...options }),
    select: (event, input) =>
      selectHandlers(init.config, event, { ...input, hook_event_name: event }, {
        cwd: init.cwd ?? (typeof input.cwd === 'string' ? input.cwd : init.projectDir), projectDir: init.projectDir, home: init.home, onceUsed,
      }),
    close: async () => {
      spare.dispose()
      await Promise.all([background.cancelAll(), heldGroups.killAll(init.killGraceMs ?? 1000)])
    },
  }
}
