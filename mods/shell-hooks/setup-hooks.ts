import type { SessionSource } from '../../core/events/types.js'
import { contexts, type HookBridge } from './bridge.js'

/**
 * The launch's Setup request (`--init`, `--init-only`, `--maintenance`, or the same names in the
 * SDK's `extraArgs`), as the runtime hands it to mods: the trigger the hooks match on, and whether
 * the launch does nothing else (`--init-only`: no SessionStart, no prompt, no SessionEnd).
 */
export interface SetupRequest { trigger: 'init' | 'maintenance'; only: boolean }

/** The request in the launch flags, or undefined when there is none or it is not one. */
export function setupRequest(flags: { setup?: unknown }): SetupRequest | undefined {
  const s = flags.setup as { trigger?: unknown; only?: unknown } | undefined
  if (!s || (s.trigger !== 'init' && s.trigger !== 'maintenance')) return undefined
  return { trigger: s.trigger, only: s.only === true }
}

/**
 * Runs the Setup hooks once, as the launched session starts (not on /clear, whose session.start is
 * another source): before SessionStart, as Claude Code runs them before its session. What they add
 * (`additionalContext`) opens the first prompt, ahead of SessionStart's; exit 2 is only a notice.
 */
export async function fireSetup(bridge: HookBridge, request: SetupRequest | undefined, source: SessionSource): Promise<string[]> {
  if (!request || (source === 'clear' || source === 'compact') || !bridge.has('Setup')) return []
  return contexts(await bridge.fire('Setup', { trigger: request.trigger }, { noPermissionMode: true }))
}
