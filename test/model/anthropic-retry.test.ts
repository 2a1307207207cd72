import { afterEach, describe, expect, it, vi } from 'vitest'
import { createAnthropicModel } from '../../runtime/model/anthropic.js'
import { backoffMs, retryPolicy } from '../../runtime/model/retry.js'
import { assembleMessage } from '../../testing/model/script.js'
import { ModelApiError, type RetryInfo } from '../../core/model/types.js'
import { collect, failure, fakeModel, request } from './helpers.js'

afterEach(() => {
  vi.unstubAllEnvs()
})

function retries(): { list: RetryInfo[]; onRetry: (info: RetryInfo) => void } {
  const list: RetryInfo[] = []
  return { list, onRetry: (info) => list.push(info) }
}

describe('retries through the real SDK', () => {
  it('retries a 429 once, then streams the reply', async () => {
    const { model, server } = await fakeModel([{ error: { status: 429 } }, { reply: 'after the wait' }])
    const r = retries()
    const events = await collect(model, request, { onRetry: r.onRetry })
    expect(r.list).toHaveLength(1)
    expect(r.list[0]).toMatchObject({ attempt: 1, maxRetries: 10, status: 429, error: 'rate_limit', delayMs: 0 })
    expect(assembleMessage(events).content).toMatchObject([{ text: 'after the wait' }])
    expect(server.requests).toHaveLength(2)
  })

  it('gives up on a request after API_TIMEOUT_MS and retries it', async () => {
    const { model, server } = await fakeModel([{ reply: 'too late', delayMs: 600 }, { reply: 'in time' }], { env: { API_TIMEOUT_MS: '150' } })
    const r = retries()
    const events = await collect(model, request, { onRetry: r.onRetry })
    expect(r.list).toMatchObject([{ attempt: 1, status: null, error: 'connection' }])
    expect(r.list[0]!.message).toContain('timed out')
    expect(assembleMessage(events).content).toMatchObject([{ text: 'in time' }])
    expect(server.requests).toHaveLength(2)
  })

  it('retries 529 three times, then streams the reply', async () => {
    const { model } = await fakeModel([{ error: { status: 529 }, times: 3 }, { reply: 'finally' }])
    const r = retries()
    const events = await collect(model, request, { onRetry: r.onRetry })
    expect(r.list.map((i) => [i.attempt, i.status, i.error])).toEqual([[1, 529, 'overloaded'], [2, 529, 'overloaded'], [3, 529, 'overloaded']])
    expect(assembleMessage(events).content).toMatchObject([{ text: 'finally' }])
  })

  it('gives up on 500 after maxRetries with server_error and the status', async () => {
    const { model, server } = await fakeModel([{ error: { status: 500, message: 'boom' }, times: 5 }, { reply: 'unreached' }], { maxRetries: 3 })
    const r = retries()
    const err = await failure(model, request, { onRetry: r.onRetry })
    expect(err).toBeInstanceOf(ModelApiError)
    expect(err).toMatchObject({ type: 'server_error', status: 500, midStream: false })
    expect((err as Error).message).toContain('boom')
    expect(r.list.map((i) => i.attempt)).toEqual([1, 2, 3])
    expect(server.requests).toHaveLength(4)
  })

  it('does not retry a 400', async () => {
    const { model, server } = await fakeModel([{ error: { status: 400, message: 'bad field' } }, { reply: 'unreached' }])
    const r = retries()
    const err = await failure(model, request, { onRetry: r.onRetry })
    expect(err).toMatchObject({ type: 'invalid_request', status: 400, message: 'bad field' })
    expect(r.list).toEqual([])
    expect(server.requests).toHaveLength(1)
  })

  it.each([
    [401, 'authentication_failed'], [402, 'billing_error'], [403, 'authentication_failed'], [404, 'model_not_found'],
  ] as const)('maps HTTP %i to %s, unretried', async (status, type) => {
    const { model } = await fakeModel([{ error: { status } }])
    expect(await failure(model)).toMatchObject({ type, status })
  })

  it('maps an overloaded_error body to overloaded whatever the status', async () => {
    const { model } = await fakeModel([{ error: { status: 503, type: 'overloaded_error' } }, { reply: 'ok' }])
    const r = retries()
    await collect(model, request, { onRetry: r.onRetry })
    expect(r.list).toMatchObject([{ status: 503, error: 'overloaded' }])
  })

  it('reports a refused connection as connection, after its retries', async () => {
    const model = createAnthropicModel({ apiKey: 'test', baseURL: 'http://127.0.0.1:1', maxRetries: 1, retryBaseMs: 1 })
    const r = retries()
    const err = await failure(model, request, { onRetry: r.onRetry })
    expect(err).toMatchObject({ type: 'connection', status: null })
    expect(r.list).toHaveLength(1)
    // The system's reason, under the SDK's and fetch's wrappers, and what to look at.
    expect((err as Error).message).toMatch(/\(connect ECONNREFUSED 127\.0\.0\.1:1\): nothing accepts connections there: check ANTHROPIC_BASE_URL/)
  })

  it('says a host name that does not resolve is the reason', async () => {
    const model = createAnthropicModel({ apiKey: 'test', baseURL: 'http://modloop-test.invalid', maxRetries: 0 })
    const err = await failure(model, request)
    expect((err as Error).message).toMatch(/\(getaddrinfo (ENOTFOUND|EAI_AGAIN) modloop-test\.invalid\): the host name/)
  })
})

describe('credentials', () => {
  it('needs an API key for the Anthropic host', async () => {
    vi.stubEnv('ANTHROPIC_API_KEY', '')
    vi.stubEnv('ANTHROPIC_AUTH_TOKEN', '')
    vi.stubEnv('ANTHROPIC_BASE_URL', '')
    const err = await failure(createAnthropicModel())
    expect(err).toMatchObject({ type: 'authentication_failed' })
    expect((err as Error).message).toContain('ANTHROPIC_API_KEY is not set')
  })

  it('uses a placeholder key for a local server', async () => {
    vi.stubEnv('ANTHROPIC_API_KEY', '')
    vi.stubEnv('ANTHROPIC_AUTH_TOKEN', '')
    const { server } = await fakeModel([{ reply: 'local' }])
    vi.stubEnv('ANTHROPIC_BASE_URL', server.url)
    const events = await collect(createAnthropicModel())
    expect(assembleMessage(events).content).toMatchObject([{ text: 'local' }])
  })
})

describe('the retry policy', () => {
  it('reads the environment and caps retries at 15', () => {
    expect(retryPolicy({}, {})).toEqual({ maxRetries: 10, baseMs: 500 })
    expect(retryPolicy({}, { MODLOOP_MAX_RETRIES: '3', MODLOOP_RETRY_BASE_MS: '1' })).toEqual({ maxRetries: 3, baseMs: 1 })
    expect(retryPolicy({}, { CLAUDE_CODE_MAX_RETRIES: '99' }).maxRetries).toBe(15)
    expect(retryPolicy({ maxRetries: 2, retryBaseMs: 7 }, { MODLOOP_MAX_RETRIES: '5' })).toEqual({ maxRetries: 2, baseMs: 7 })
  })

  it('backs off exponentially with jitter, honouring retry-after up to 30 s', () => {
    for (const attempt of [1, 2, 3]) {
      const d = backoffMs(attempt, 100)
      expect(d).toBeGreaterThanOrEqual(100 * 2 ** (attempt - 1))
      expect(d).toBeLessThanOrEqual(125 * 2 ** (attempt - 1))
    }
    expect(backoffMs(1, 100, 2_000)).toBe(2_000)
    expect(backoffMs(1, 100, 120_000)).toBe(30_000)
  })
})
