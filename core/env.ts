type Env = Readonly<Record<string, string | undefined>>

/**
 * The one place core reads its settings from an environment: `MODLOOP_<name>` first, then the
 * same setting under Claude Code's name, `CLAUDE_CODE_<name>`, so an environment set up for
 * Claude Code configures modloop unchanged. Empty values count as unset.
 */
export function envSetting(env: Env | undefined, name: string): string | undefined {
  if (!env) return undefined
  for (const key of envNames(name)) {
    const value = env[key]
    if (value !== undefined && value.trim() !== '') return value
  }
  return undefined
}

/** The variable names a setting is read from, in order: for messages that tell a person what to set. */
export function envNames(name: string): [string, string] {
  return [`MODLOOP_${name}`, `CLAUDE_CODE_${name}`]
}

/** A whole number setting at or above `min`, else `fallback` (a malformed value is ignored, not fatal). */
export function envInteger(env: Env | undefined, name: string, fallback: number, min = 0): number {
  const raw = envSetting(env, name)
  const n = raw === undefined ? NaN : Number(raw)
  return Number.isInteger(n) && n >= min ? n : fallback
}

/** A switch as Claude Code reads one: on for `1`, `true`, `yes` or `on` (any case), off for anything else or unset. */
export function envTrue(value: string | undefined): boolean {
  return value !== undefined && /^(1|true|yes|on)$/i.test(value.trim())
}

/** A switch said off: `0`, `false`, `no` or `off` (any case); unset or anything else is not. */
export function envFalse(value: string | undefined): boolean {
  return value !== undefined && /^(0|false|no|off)$/i.test(value.trim())
}
