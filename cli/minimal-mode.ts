import type { Builtins } from '../runtime/loader/types.js'

/** Claude Code's minimal mode is on when CLAUDE_CODE_SIMPLE is 1, true, yes or on (any case); `--bare` sets it. */
export function minimalMode(env: Record<string, string | undefined>): boolean {
  return /^(1|true|yes|on)$/i.test(env.CLAUDE_CODE_SIMPLE ?? '')
}

/**
 * The built-in set a session starts from. A minimal run is a smaller default distribution, not
 * checks in the mods: only the mods it names are imported and registered, so the settings hooks,
 * memory files, skills and the rest never load. `surface` adds the mods the front end itself
 * needs (the terminal). A config the person wrote (found, or given with --config) still applies.
 */
export async function sessionBuiltins(builtins: Builtins, env: Record<string, string | undefined>, surface: string[] = []): Promise<Builtins> {
  if (!minimalMode(env)) return builtins
  const { minimalDistribution } = await import('../mods/index.js')
  return { ...builtins, defaultDistribution: [...minimalDistribution, ...surface] }
}
