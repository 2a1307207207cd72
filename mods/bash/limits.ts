import type { BashOptions } from './bash-tool.js'

export const DEFAULT_TIMEOUT_MS = 120_000
export const MAX_TIMEOUT_MS = 600_000
export const DEFAULT_OUTPUT_CHARS = 30_000
/** How long a command moved to the background at its timeout may run on there (Claude Code's figure). */
export const MOVED_LIMIT_MS = 10 * 60_000
/** How long a run_in_background command may run when its `timeout` does not say, and the most it may ask (spec loop-and-sdk §7, Bash). */
export const BACKGROUND_DEFAULT_MS = 30 * 60_000
export const BACKGROUND_MAX_MS = 120 * 60_000
/**
 * The timeout a call asked for, or undefined for the default: the schema asks for one above zero,
 * but a model's 0 (meaning "none") runs with the default, as in Claude Code, rather than cost a round.
 */
export const askedTimeout = (ms: number | undefined): number | undefined => (ms !== undefined && ms > 0 ? ms : undefined)
/** BASH_MAX_OUTPUT_LENGTH is held at this, as in Claude Code. */
const OUTPUT_CHARS_CAP = 150_000

/**
 * A session's Bash limits: the mod's options where a distribution set them, else Claude Code's
 * variables in the session's environment (settings `env` included: the settings-env mod sets them
 * before this mod starts), else the defaults. As in Claude Code, a maximum that comes from the
 * environment or the default is never below the default timeout; one the options set is kept,
 * as a cap on every command.
 */
export function bashLimits(opts: Partial<BashOptions>, env: (name: string) => string | undefined): BashOptions {
  const defaultTimeoutMs = opts.defaultTimeoutMs ?? positive(env('BASH_DEFAULT_TIMEOUT_MS')) ?? DEFAULT_TIMEOUT_MS
  const maxTimeoutMs = opts.maxTimeoutMs ?? Math.max(positive(env('BASH_MAX_TIMEOUT_MS')) ?? MAX_TIMEOUT_MS, defaultTimeoutMs)
  const fromEnv = positive(env('BASH_MAX_OUTPUT_LENGTH'))
  const maxOutputChars = opts.maxOutputChars ?? (fromEnv === undefined ? DEFAULT_OUTPUT_CHARS : Math.min(fromEnv, OUTPUT_CHARS_CAP))
  return { defaultTimeoutMs, maxTimeoutMs, maxOutputChars, movedLimitMs: opts.movedLimitMs ?? MOVED_LIMIT_MS }
}

/** A whole number above zero, else undefined: a malformed value is ignored, as an unset one. */
function positive(raw: string | undefined): number | undefined {
  const n = raw === undefined || raw.trim() === '' ? NaN : Number(raw)
  return Number.isInteger(n) && n > 0 ? n : undefined
}
