import type { Usage } from '../events/types.js'

const COUNTS = ['input_tokens', 'output_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens'] as const
/** What the API says of how it served a request: kept as reported, never summed. */
const FACTS = ['service_tier', 'inference_geo', 'speed', 'iterations', 'fallback_credit'] as const

type Nullable<T> = { [K in keyof T]?: T[K] | null }

/** Usage as a stream event carries it: any count or fact may be missing or null. */
export type RawUsage = { [K in (typeof COUNTS)[number]]?: number | null } & {
  cache_creation?: Nullable<{ ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number }> | null
  server_tool_use?: Nullable<{ web_search_requests: number; web_fetch_requests: number }> | null
  output_tokens_details?: Nullable<{ thinking_tokens: number }> | null
} & Nullable<Pick<Usage, (typeof FACTS)[number]>>

/**
 * Usage from a raw stream event: a count the event leaves out (or sends as null) keeps its value
 * in `base`. The 5m/1h split of the cache writes is kept only where the API reported writes, so
 * a usage without it reads as every write at the 5-minute rate. Server tool counts, thinking
 * tokens and the service facts are kept only once reported (message_delta adds to message_start).
 */
export function readUsage(u: RawUsage, base?: Usage): Usage {
  const out = {} as Usage
  for (const k of COUNTS) out[k] = typeof u[k] === 'number' ? u[k] : base?.[k] ?? 0
  const split = u.cache_creation
  // A split of nothing says nothing: usage without cache writes keeps its plain shape.
  if (split && ((split.ephemeral_5m_input_tokens ?? 0) > 0 || (split.ephemeral_1h_input_tokens ?? 0) > 0)) out.cache_creation = { ephemeral_5m_input_tokens: split.ephemeral_5m_input_tokens ?? 0, ephemeral_1h_input_tokens: split.ephemeral_1h_input_tokens ?? 0 }
  else if (base?.cache_creation) out.cache_creation = { ...base.cache_creation }
  const tools = u.server_tool_use
  if (tools) {
    out.server_tool_use = {
      web_search_requests: tools.web_search_requests ?? base?.server_tool_use?.web_search_requests ?? 0,
      web_fetch_requests: tools.web_fetch_requests ?? base?.server_tool_use?.web_fetch_requests ?? 0,
    }
  } else if (base?.server_tool_use) out.server_tool_use = { ...base.server_tool_use }
  const thinking = u.output_tokens_details?.thinking_tokens ?? base?.output_tokens_details?.thinking_tokens
  if (typeof thinking === 'number') out.output_tokens_details = { thinking_tokens: thinking }
  for (const k of FACTS) {
    const v = u[k] ?? base?.[k]
    if (v !== undefined && v !== null) (out as unknown as Record<string, unknown>)[k] = v
  }
  return out
}
