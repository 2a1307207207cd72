import type { Usage } from '../events/types.js'

const COUNTS = ['input_tokens', 'output_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens'] as const

/** Usage as a stream event carries it: any count may be missing or null. */
export type RawUsage = { [K in (typeof COUNTS)[number]]?: number | null } & {
  cache_creation?: { ephemeral_5m_input_tokens?: number | null; ephemeral_1h_input_tokens?: number | null } | null
}

/**
 * Usage from a raw stream event: a count the event leaves out (or sends as null) keeps its value
 * in `base`. The 5m/1h split of the cache writes is kept only where the API reported writes, so
 * a usage without it reads as every write at the 5-minute rate.
 */
export function readUsage(u: RawUsage, base?: Usage): Usage {
  const out = {} as Usage
  for (const k of COUNTS) out[k] = typeof u[k] === 'number' ? u[k] : base?.[k] ?? 0
  const split = u.cache_creation
  // A split of nothing says nothing: usage without cache writes keeps its plain shape.
  if (split && ((split.ephemeral_5m_input_tokens ?? 0) > 0 || (split.ephemeral_1h_input_tokens ?? 0) > 0)) out.cache_creation = { ephemeral_5m_input_tokens: split.ephemeral_5m_input_tokens ?? 0, ephemeral_1h_input_tokens: split.ephemeral_1h_input_tokens ?? 0 }
  else if (base?.cache_creation) out.cache_creation = { ...base.cache_creation }
  return out
}
