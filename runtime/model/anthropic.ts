import type { MessageCreateParamsStreaming, RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages'
import type { MessagesClient } from './sdk-client.js'
import { describeError, describeWithCause } from '../../core/errors.js'
import { httpFetch, preconnect, type FetchInit } from './http-fetch.js'
import { authHeaders, type Credentials } from './auth-headers.js'
import type { KeyHelper } from './key-helper.js'
import { modelErrorType } from '../../core/model/api-errors.js'
import { abortedError, blockCompleted, RETRY_AFTER_CAP_MS, retryPolicy, streamWithRetries, type Failure, type RetryOptions } from './retry.js'
import { describeConnectionFailure } from './connection-error.js'
import { apiTimeoutMs, customHeaders, envBetas, withExtraBody } from './request-env.js'
import { IdleWatch, StreamIdle, streamIdleTimeoutMs } from './stream-idle.js'
import { ModelApiError, type Model, type ModelRequest, type StreamOptions } from '../../core/model/types.js'

export interface AnthropicModelOptions extends RetryOptions {
  /** Defaults to ANTHROPIC_API_KEY (ANTHROPIC_AUTH_TOKEN is used when neither is set), read per request. */
  apiKey?: string
  /** Defaults to ANTHROPIC_BASE_URL as the first request finds it, then the SDK's default host. */
  baseURL?: string
  /** Per-request timeout; API_TIMEOUT_MS, else 10 minutes. */
  timeoutMs?: number
  /**
   * A response that sends no event for this long is given up on and retried as a cut stream;
   * 90 s by default (MODLOOP_STREAM_IDLE_TIMEOUT_MS), 0 for none.
   */
  streamIdleTimeoutMs?: number
  name?: string
  /**
   * The `apiKeyHelper` setting's command: its key goes in whichever of `x-api-key` and
   * `Authorization` the environment leaves empty, asked for per request (runtime/model/key-helper.ts);
   * given as a function, it is asked for at the first request, once the settings that name it are read.
   */
  keyHelper?: KeyHelper | (() => Promise<KeyHelper | undefined>)
  /** Where the ANTHROPIC_* variables are read: the session's environment (query options.env); process.env by default. */
  env?: Record<string, string | undefined>
  /**
   * The session's environment as it is at each request, settings `env` blocks applied: where the
   * credentials, the base URL, the proxy, API_TIMEOUT_MS, ANTHROPIC_BETAS, ANTHROPIC_CUSTOM_HEADERS and
   * CLAUDE_CODE_EXTRA_BODY are read (request-env.ts), as Claude Code takes them from settings `env`
   * too; `env` when absent or undefined.
   */
  requestEnv?: () => Record<string, string | undefined> | undefined
  /** The debug log's `api` lines (`--debug api`): each request, and a CLAUDE_CODE_EXTRA_BODY it had to ignore. */
  debug?: (level: 'debug' | 'error', text: string) => void
}

export const DEFAULT_TIMEOUT_MS = 600_000

type Sdk = typeof import('./sdk-client.js')
let sdkImport: Promise<Sdk> | undefined

/**
 * The Messages API through @anthropic-ai/sdk, streaming. The SDK's own retries are off so every
 * retry goes through streamWithRetries and is reported through `onRetry`. The SDK starts loading
 * when the model is created, in the background, so that nothing waits for it before the first request.
 */
export function createAnthropicModel(options: AnthropicModelOptions = {}): Model {
  const env = options.env ?? process.env
  const policy = retryPolicy(options, env)
  const idleMs = streamIdleTimeoutMs(options.streamIdleTimeoutMs, env)
  let sdk: Sdk | undefined
  let client: MessagesClient | undefined
  // Start loading the SDK now: its compilation overlaps the I/O of opening the session. The
  // connection is opened now too, so its handshake overlaps it as well.
  ;(sdkImport ??= import('./sdk-client.js')).catch(() => undefined)
  preconnect(options.baseURL ?? env.ANTHROPIC_BASE_URL ?? 'https://api.anthropic.com', env)

  let helperReady: Promise<KeyHelper | undefined> | undefined
  let helper: KeyHelper | undefined

  async function getClient(now: Record<string, string | undefined>): Promise<MessagesClient> {
    if (client !== undefined) return client
    sdk = await (sdkImport ??= import('./sdk-client.js'))
    client = new sdk.MessagesClient({
      // The SDK insists on a credential; each request's own auth headers replace it (authHeaders).
      apiKey: 'sent-per-request',
      baseURL: options.baseURL ?? now.ANTHROPIC_BASE_URL,
      maxRetries: 0,
      // The proxy variables are read per request, as the others are: settings `env` counts.
      fetch: ((input: string, init?: FetchInit) => httpFetch(input, init, options.requestEnv?.() ?? env)) as unknown as typeof fetch,
      timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      // Core prints nothing; ANTHROPIC_LOG still turns the SDK's own logging on for debugging.
      logLevel: env.ANTHROPIC_LOG ? undefined : 'off',
      ...(sdkTracingIdle() ? { openTelemetry: false } : {}),
    })
    return client
  }

  async function* attempt(request: ModelRequest, streamOptions: StreamOptions): AsyncGenerator<RawMessageStreamEvent> {
    const { signal } = streamOptions
    const { keyHelper } = options
    helper = await (helperReady ??= typeof keyHelper === 'function' ? keyHelper() : Promise.resolve(keyHelper))
    const now = options.requestEnv?.() ?? env
    const auth = authHeaders(await withHelperKey(credentials(options, now, helper), helper))
    const api = await getClient(now)
    const { betas, ...body } = request
    const params = { ...withExtraBody(body, now, (text) => options.debug?.('error', text)), stream: true } as MessageCreateParamsStreaming
    options.debug?.('debug', `POST /v1/messages model=${params.model}`)
    const allBetas = [...new Set([...betas ?? [], ...envBetas(now)])]
    const headers = { ...customHeaders(now), ...auth, ...(allBetas.length ? { 'anthropic-beta': allBetas.join(',') } : {}) }
    const timeout = options.timeoutMs ?? apiTimeoutMs(now) ?? DEFAULT_TIMEOUT_MS
    const watch = new IdleWatch(idleMs, signal)
    let received = false
    try {
      watch.waiting()
      const { data: stream, request_id: requestId } = await api.messages.create(params, { signal: watch.signal, headers, timeout }).withResponse()
      streamOptions.onResponse?.(requestId ? { requestId } : {})
      let stopped = false
      let delivered = false
      for await (const event of stream) {
        watch.holding()
        received = true
        if (event.type === 'message_stop') stopped = true
        if (event.type === 'message_delta' && event.delta.stop_reason) delivered = true
        yield event
        watch.waiting()
      }
      // The SDK ends the iteration quietly when the signal aborts it.
      if (watch.fired) throw new StreamIdle(idleMs, received)
      if (signal?.aborted) throw abortedError()
      // A stream that said why it stopped has said everything; only its closing frame is missing
      // (a proxy that drops it): the response is whole, as Claude Code takes it, not a cut to continue.
      if (!stopped && delivered) yield { type: 'message_stop' }
      else if (!stopped) throw new IncompleteStream()
    } catch (err) {
      // Whatever the SDK made of the abort, the cause was the silence.
      if (watch.fired && !(err instanceof StreamIdle)) throw new StreamIdle(idleMs, received)
      throw err
    } finally {
      watch.dispose()
    }
  }

  function toFailure(err: unknown, midStream: boolean): Failure {
    if (err instanceof ModelApiError) {
      return { error: midStream && !err.midStream ? new ModelApiError(err.type, err.message, err.status, true) : err }
    }
    // A silent stream is a cut one: retried until a block completed, like a reset.
    if (err instanceof StreamIdle) return { error: new ModelApiError(midStream ? 'stream' : 'connection', err.message, null, midStream) }
    if (sdk !== undefined && err instanceof sdk.APIUserAbortError) return { error: abortedError() }
    if (sdk !== undefined && err instanceof sdk.APIConnectionTimeoutError) {
      return { error: new ModelApiError('connection', `the request timed out: ${err.message}`, null, midStream) }
    }
    if (sdk !== undefined && err instanceof sdk.APIConnectionError) {
      return { error: midStream ? new ModelApiError('stream', `${CUT_OFF} (${describeWithCause(err)})`, null, true) : new ModelApiError('connection', describeConnectionFailure(err)) }
    }
    if (sdk !== undefined && err instanceof sdk.APIError) {
      const status = typeof err.status === 'number' ? err.status : null
      const type = modelErrorType(status, err.type)
      const error = new ModelApiError(type, err.apiMessage ?? err.message, status, midStream)
      const shouldRetry = err.headers?.get('x-should-retry')
      let retryable = shouldRetry === 'false' ? false : shouldRetry === 'true' ? true : undefined
      // A helper's key may have rotated: the retry asks the helper again, as Claude Code does.
      if (status === 401 && helper) {
        helper.expire()
        retryable = true
      }
      return { error, retryable, retryAfterMs: retryAfter(err.headers) }
    }
    // A body cut off mid-read surfaces as a plain fetch error ("TypeError: terminated"), or as IncompleteStream.
    if (err instanceof IncompleteStream) return { error: new ModelApiError('stream', err.message, null, midStream) }
    if (midStream) return { error: new ModelApiError('stream', `${CUT_OFF} (${describeError(err)})`, null, true) }
    return { error: new ModelApiError('connection', describeError(err), null, false) }
  }

  return {
    name: options.name ?? 'anthropic',
    stream(request: ModelRequest, streamOptions: StreamOptions = {}) {
      return streamWithRetries(() => attempt(request, streamOptions), toFailure, policy, streamOptions, blockCompleted)
    },
  }
}

// Where @opentelemetry/api keeps what an application registered (a tracer provider, a
// propagator), shared by every copy of the API of major version 1.
const OTEL_API_GLOBAL = Symbol.for('opentelemetry.js.api.1')

/**
 * Whether the SDK's OpenTelemetry spans would go nowhere: nothing in the process registered an
 * OpenTelemetry API global by the time the client is made (the first request), and
 * ANTHROPIC_OPEN_TELEMETRY, which the SDK reads from the process's environment, does not say.
 * The SDK would still start a span for every request (its attributes built, the base URL parsed,
 * the trace context injected and dropped): ~2.5% of a tool round's CPU while the code is cold.
 */
function sdkTracingIdle(): boolean {
  if (process.env.ANTHROPIC_OPEN_TELEMETRY !== undefined) return false
  return (globalThis as Record<symbol, unknown>)[OTEL_API_GLOBAL] === undefined
}

const CUT_OFF = 'the response stream was cut off before message_stop'

class IncompleteStream extends Error {
  constructor() {
    super(CUT_OFF)
  }
}

/**
 * Picks the SDK credential. A local stand-in server (ANTHROPIC_BASE_URL not on anthropic.com)
 * needs no key, but the SDK insists on one, so it gets a placeholder.
 */
function credentials(options: AnthropicModelOptions, env: Record<string, string | undefined>, helper: KeyHelper | undefined): Credentials {
  const apiKey = options.apiKey ?? env.ANTHROPIC_API_KEY
  const authToken = env.ANTHROPIC_AUTH_TOKEN
  // The helper's key fills whichever of the two the environment leaves empty.
  if (helper) return { ...(apiKey ? { apiKey } : {}), ...(authToken ? { authToken } : {}) }
  if (apiKey) return { apiKey }
  if (authToken) return { authToken }
  const baseURL = options.baseURL ?? env.ANTHROPIC_BASE_URL
  if (baseURL && !isAnthropicHost(baseURL)) return { apiKey: 'modloop-local-no-key' }
  throw new ModelApiError(
    'authentication_failed',
    'ANTHROPIC_API_KEY is not set: export it, pass apiKey, or point ANTHROPIC_BASE_URL at a local Messages API server',
  )
}

/** Claude Code sends the helper's key as the API key and as the token, where the environment sets neither. */
async function withHelperKey(credentials: Credentials, helper: KeyHelper | undefined): Promise<Credentials> {
  if (!helper || (credentials.apiKey && credentials.authToken)) return credentials
  const key = await helper.key()
  return { apiKey: credentials.apiKey ?? key, authToken: credentials.authToken ?? key }
}

function isAnthropicHost(baseURL: string): boolean {
  try {
    const host = new URL(baseURL).hostname
    return host === 'anthropic.com' || host.endsWith('.anthropic.com')
  } catch {
    return true
  }
}

/** retry-after-ms, then retry-after (seconds or an HTTP date), in ms; null when absent. */
function retryAfter(headers: Headers | undefined): number | null {
  const ms = Number(headers?.get('retry-after-ms') ?? NaN)
  if (Number.isFinite(ms) && ms >= 0) return Math.min(ms, RETRY_AFTER_CAP_MS)
  const value = headers?.get('retry-after')
  if (value == null) return null
  const seconds = Number(value)
  const wait = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(value) - Date.now()
  return Number.isFinite(wait) ? Math.min(Math.max(0, wait), RETRY_AFTER_CAP_MS) : null
}
