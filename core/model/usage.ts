import type { Usage } from '../events/types.js'

const COUNTS = ['input_tokens', 'output_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens'] as const

/** Usage as a stream event carries it: any count may be missing or null. */
export type RawUsage = { [K in (typeof COUNTS)[number]]?: number | null } & {
  cache_creation?: { ephemeral_5m_input_tokens?: number | null; ephemeral_1h_input_tokens?: number | null } | null
  server_tool_use?: { web_search_requests?: number | null; web_fetch_requests?: number | null } | null
}

/**
 * Usage from a raw stream event: a count the event leaves out (or sends as null) keeps its value
 * in `base`. The 5m/1h split of the cache writes is kept only where the API reported writes, so
 * a usage without it reads as every write at the 5-minute rate. The server tool counts are kept
 * once reported (message_delta brings them): the searches are billed.
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
  return out
}
