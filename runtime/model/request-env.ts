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

/**
 * CLAUDE_CODE_EXTRA_BODY: a JSON object whose fields Claude Code lays over every request's body,
 * each replacing the request's own (`model`, `messages` and `max_tokens` too), except
 * `output_config`, whose fields are merged into the request's. Not an object, it is ignored and
 * `onBad` told (the debug log's error, as Claude Code's: the run goes on).
 */
export function withExtraBody<B extends object>(body: B, env: Env, onBad?: (text: string) => void): B {
  const raw = env.CLAUDE_CODE_EXTRA_BODY?.trim()
  if (!raw) return body
  let extra: unknown
  try {
    extra = JSON.parse(raw)
  } catch {
    extra = undefined
  }
  if (!isObject(extra)) {
    onBad?.(`CLAUDE_CODE_EXTRA_BODY must be a JSON object; it is ignored, and was: ${raw}`)
    return body
  }
  const own = (body as { output_config?: unknown }).output_config
  const merged = isObject(own) && isObject(extra.output_config) ? { output_config: { ...own, ...extra.output_config } } : {}
  return { ...body, ...extra, ...merged }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
