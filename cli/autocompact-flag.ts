import { usageError } from './usage-error.js'

const VAR = 'CLAUDE_CODE_AUTO_COMPACT_WINDOW'
// The compaction mod takes the window up to this; a larger one is the model's own window anyway.
const MAX = 1_000_000
const VALUE = /^(\d+(?:\.\d+)?)([km]?)$/i

/**
 * `--autocompact <auto|tokens>`: the window auto compaction works from, as CLAUDE_CODE_AUTO_COMPACT_WINDOW
 * sets it (the compaction mod reads that); the variable, when set, still wins, as in Claude Code.
 * Tokens are written `200000`, `500k`, `1m`, or `200` (up to 1000, thousands), and are at least 100k.
 */
export function autocompactEnv(value: string | undefined, env: Record<string, string | undefined>): Record<string, string | undefined> {
  if (value === undefined || value === 'auto' || env[VAR]?.trim()) return env
  const m = VALUE.exec(value.trim())
  const n = m ? Number(m[1]) : NaN
  const unit = m?.[2]?.toLowerCase()
  const tokens = Math.round(unit === 'm' ? n * 1_000_000 : unit === 'k' || n <= 1000 ? n * 1000 : n)
  if (!(tokens >= 100_000)) throw usageError(`--autocompact takes auto, or a window of at least 100k tokens (500k, 200000, or 200 for 200k), not "${value}"`)
  return { ...env, [VAR]: String(Math.min(tokens, MAX)) }
}
