import { envTrue } from '../../core/env.js'
import { contextWindow, maxOutputTokens } from '../../core/model/pricing.js'

type Env = (name: string) => string | undefined

/** What the window-based threshold keeps free: room for the reply (at most 20,000) and a margin. */
export const OUTPUT_RESERVE_CAP = 20_000
export const MARGIN = 13_000
const WINDOW_RANGE = [100_000, 1_000_000] as const

export interface ThresholdInput {
  model: string
  /** The `thresholdTokens` option. */
  thresholdTokens?: number
  env: Env
  warn: (text: string) => void
}

/**
 * The context size at which auto compaction runs, or undefined when it is off. In order:
 * `DISABLE_COMPACT` / `DISABLE_AUTO_COMPACT` turn it off; `MODLOOP_AUTOCOMPACT_TOKENS` (an absolute
 * count, for tests and small-window models) and then the `thresholdTokens` option set it outright;
 * otherwise the window (`CLAUDE_CODE_AUTO_COMPACT_WINDOW`, 100,000–1,000,000, never past the
 * model's own, 200,000 with `CLAUDE_CODE_DISABLE_1M_CONTEXT`) minus min(max output, 20,000) minus 13,000 — 167,000 on a 200K window — lowered,
 * never raised, by `CLAUDE_AUTOCOMPACT_PCT_OVERRIDE` (1–100, a percentage of the window).
 */
export function autoThreshold(input: ThresholdInput): number | undefined {
  const { env, warn } = input
  if (envTrue(env('DISABLE_COMPACT')) || envTrue(env('DISABLE_AUTO_COMPACT'))) return undefined
  const absolute = intVar(env, 'MODLOOP_AUTOCOMPACT_TOKENS', 1, Number.MAX_SAFE_INTEGER, warn)
  if (absolute !== undefined) return absolute
  if (input.thresholdTokens !== undefined) return input.thresholdTokens
  const modelWindow = contextWindow(input.model, { CLAUDE_CODE_DISABLE_1M_CONTEXT: env('CLAUDE_CODE_DISABLE_1M_CONTEXT') })
  const asked = intVar(env, 'CLAUDE_CODE_AUTO_COMPACT_WINDOW', WINDOW_RANGE[0], WINDOW_RANGE[1], warn)
  const window = Math.min(asked ?? modelWindow, modelWindow)
  let at = window - Math.min(maxOutputTokens(input.model), OUTPUT_RESERVE_CAP) - MARGIN
  const pct = intVar(env, 'CLAUDE_AUTOCOMPACT_PCT_OVERRIDE', 1, 100, warn)
  if (pct !== undefined) at = Math.min(at, Math.floor((window * pct) / 100))
  return Math.max(1, at)
}

function intVar(env: Env, name: string, min: number, max: number, warn: (text: string) => void): number | undefined {
  const raw = env(name)
  if (raw === undefined || raw.trim() === '') return undefined
  const n = Number(raw.trim())
  if (!Number.isInteger(n) || n < min || n > max) {
    warn(`${name}=${raw} is ignored: expected a whole number from ${min.toLocaleString('en-US')} to ${max.toLocaleString('en-US')}`)
    return undefined
  }
  return n
}
