import { classifyStdout } from './classify-stdout.js'
import type { HttpHandler } from './config-schema.js'
import { describeCause } from './errors.js'
import type { RawResult } from './raw-result.js'
import { formatSeconds } from './run-command.js'

export interface HttpContext {
  body: string
  env: NodeJS.ProcessEnv
  /** `httpHookAllowedEnvVars` from settings: an outer bound on the handler's own allowedEnvVars. */
  envBound?: readonly string[]
  timeoutMs: number
  signal?: AbortSignal
  fetch: typeof fetch
}

const VAR = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g

/**
 * Header values may name environment variables, but only those the handler lists in
 * `allowedEnvVars` (and the settings bound, when set) are substituted; any other reference becomes
 * the empty string, so a project file cannot read secrets out of the environment.
 */
export function interpolateHeaders(h: HttpHandler, env: NodeJS.ProcessEnv, bound?: readonly string[]): Record<string, string> {
  const allowed = new Set((h.allowedEnvVars ?? []).filter((v) => !bound || bound.includes(v)))
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(h.headers ?? {})) {
    headers[name] = value.replace(VAR, (_, braced?: string, bare?: string) => {
      const key = (braced ?? bare)!
      return allowed.has(key) ? (env[key] ?? '') : ''
    })
  }
  return headers
}

/**
 * POSTs the hook input and reads the answer (spec §3.8): a 2xx with an empty body is success, a 2xx
 * JSON object is parsed like command stdout, anything else is a non-blocking error. Status codes
 * never block by themselves.
 */
export async function runHttp(h: HttpHandler, ctx: HttpContext): Promise<RawResult> {
  const started = performance.now()
  const timeout = new AbortController()
  const timer = setTimeout(() => timeout.abort(), ctx.timeoutMs)
  const signal = ctx.signal ? AbortSignal.any([ctx.signal, timeout.signal]) : timeout.signal
  const base = { exitCode: null, stdout: '', stderr: '' }
  try {
    const response = await ctx.fetch(h.url, {
      method: 'POST',
      headers: { ...interpolateHeaders(h, ctx.env, ctx.envBound), 'Content-Type': 'application/json' },
      body: ctx.body,
      signal,
    })
    const text = await response.text()
    const durationMs = performance.now() - started
    if (!response.ok) {
      return { ...base, status: 'failed', httpStatus: response.status, stdout: text, durationMs, message: `HTTP ${response.status} ${response.statusText}`.trim(), errorCode: 'HOOKS_ERR_HTTP' }
    }
    const bodyNotJson = classifyStdout(text).kind === 'text'
    return { ...base, status: 'done', exitCode: 0, httpStatus: response.status, stdout: text, durationMs, bodyNotJson }
  } catch (err) {
    const durationMs = performance.now() - started
    if (timeout.signal.aborted) return { ...base, status: 'timeout', durationMs, message: `timed out after ${formatSeconds(ctx.timeoutMs)}` }
    if (ctx.signal?.aborted) return { ...base, status: 'cancelled', durationMs, message: 'Hook cancelled' }
    return { ...base, status: 'failed', durationMs, message: `request failed: ${describeCause((err as { cause?: unknown }).cause ?? err)}`, errorCode: 'HOOKS_ERR_HTTP' }
  } finally {
    clearTimeout(timer)
  }
}
