type Env = Record<string, string | undefined>

/**
 * API_TIMEOUT_MS: how long one request may take, in ms, as Claude Code reads it (its client's
 * timeout, after which the request is retried); undefined when unset or not a whole number from 1.
 */
export function apiTimeoutMs(env: Env): number | undefined {
  const raw = env.API_TIMEOUT_MS?.trim()
  if (!raw || !/^\d+$/.test(raw)) return undefined
  const ms = Number(raw)
  return ms > 0 && ms <= 2_147_483_647 ? ms : undefined
}

/** ANTHROPIC_BETAS: betas, comma-separated, that Claude Code adds to every request's `anthropic-beta`. */
export function envBetas(env: Env): string[] {
  return (env.ANTHROPIC_BETAS ?? '').split(',').map((b) => b.trim()).filter(Boolean)
}

/**
 * ANTHROPIC_CUSTOM_HEADERS: `Name: value` lines sent with every request. The SDK reads it too, but
 * only from this process's environment as the client is made: read here, settings `env` counts.
 */
export function customHeaders(env: Env): Record<string, string> {
  const out: Record<string, string> = {}
  for (const line of (env.ANTHROPIC_CUSTOM_HEADERS ?? '').split('\n')) {
    const colon = line.indexOf(':')
    const name = line.slice(0, colon).trim()
    if (colon > 0 && name) out[name.toLowerCase()] = line.slice(colon + 1).trim()
  }
  return out
}
