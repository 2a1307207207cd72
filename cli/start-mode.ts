import type { Builtins } from '../runtime/loader/types.js'
import { envTrue } from '../core/env.js'

/** Claude Code's minimal mode: CLAUDE_CODE_SIMPLE set to 1, true, yes or on (any case); `--bare` sets it. */
export const minimalMode = (env: Record<string, string | undefined>): boolean => envTrue(env.CLAUDE_CODE_SIMPLE)

/** Claude Code's safe mode: CLAUDE_CODE_SAFE_MODE set the same way; `--safe-mode` sets it. */
export const safeMode = (env: Record<string, string | undefined>): boolean => envTrue(env.CLAUDE_CODE_SAFE_MODE)

/** The session's environment with what `--bare` and `--safe-mode` say in it, as Claude Code sets them: the session's commands see them too. */
export function startModeEnv(values: Record<string, unknown>, env: Record<string, string | undefined>): Record<string, string | undefined> {
  const set = { ...(values.bare === true ? { CLAUDE_CODE_SIMPLE: '1' } : {}), ...(values['safe-mode'] === true ? { CLAUDE_CODE_SAFE_MODE: '1' } : {}) }
  return Object.keys(set).length > 0 ? { ...env, ...set } : env
}

/**
 * The built-in set a session starts from. Minimal and safe mode are a smaller default
 * distribution, not checks in the mods: the mods left out are never imported, so their hooks,
 * memory files, skills and the rest never load. `surface` adds the mods the front end itself needs
 * (the terminal). A config the person wrote (found, or given with --config) still applies.
 */
export async function sessionBuiltins(builtins: Builtins, env: Record<string, string | undefined>, surface: string[] = []): Promise<Builtins> {
  const minimal = minimalMode(env)
  if (!minimal && !safeMode(env)) return builtins
  const { minimalDistribution, safeDistribution } = await import('../mods/index.js')
  return { ...builtins, defaultDistribution: [...(minimal ? minimalDistribution : safeDistribution), ...surface] }
}
