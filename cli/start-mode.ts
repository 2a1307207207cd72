import type { Builtins } from '../runtime/loader/types.js'
import type { QueryOptions } from '../runtime/options.js'
import { envTrue } from '../core/env.js'

/** Claude Code's minimal mode: CLAUDE_CODE_SIMPLE set to 1, true, yes or on (any case); `--bare` sets it. */
export const minimalMode = (env: Record<string, string | undefined>): boolean => envTrue(env.CLAUDE_CODE_SIMPLE)

/** Claude Code's safe mode: CLAUDE_CODE_SAFE_MODE set the same way; `--safe-mode` sets it. */
export const safeMode = (env: Record<string, string | undefined>): boolean => envTrue(env.CLAUDE_CODE_SAFE_MODE)

/** Claude Code's restricted mode: CLAUDE_CODE_RESTRICTED set the same way; `--restricted` sets it. */
export const restrictedMode = (env: Record<string, string | undefined>): boolean => envTrue(env.CLAUDE_CODE_RESTRICTED)

/**
 * The session's environment with what `--bare`, `--safe-mode` and `--restricted` say in it, so that
 * every front end (the terminal, the SDK's transport) sees the same mode; the session's commands see
 * them too, as Claude Code's see CLAUDE_CODE_SIMPLE.
 */
export function startModeEnv(values: Record<string, unknown>, env: Record<string, string | undefined>): Record<string, string | undefined> {
  const set = {
    ...(values.bare === true ? { CLAUDE_CODE_SIMPLE: '1' } : {}),
    ...(values['safe-mode'] === true ? { CLAUDE_CODE_SAFE_MODE: '1' } : {}),
    ...(values.restricted === true ? { CLAUDE_CODE_RESTRICTED: '1' } : {}),
  }
  return Object.keys(set).length > 0 ? { ...env, ...set } : env
}

/**
 * The built-in set a session starts from. Minimal, safe and restricted mode are a smaller default
 * distribution, not checks in the mods: the mods left out are never imported, so their hooks,
 * memory files, skills, tools and the rest never load. `surface` adds the mods the front end itself
 * needs (the terminal); `tools` is the launch's `--tools`, whose list restricted mode honours. A
 * config the person wrote (found, or given with --config) still applies.
 */
export async function sessionBuiltins(builtins: Builtins, env: Record<string, string | undefined>, surface: string[] = [], tools?: QueryOptions['tools']): Promise<Builtins> {
  const minimal = minimalMode(env)
  const restricted = !minimal && restrictedMode(env)
  if (!minimal && !restricted && !safeMode(env)) return builtins
  const { minimalDistribution, restrictedDistribution, safeDistribution } = await import('../mods/index.js')
  const base = minimal ? minimalDistribution : restricted ? restrictedDistribution(Array.isArray(tools)) : safeDistribution
  return { ...builtins, defaultDistribution: [...base, ...surface] }
}
