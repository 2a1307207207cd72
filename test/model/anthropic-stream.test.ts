import Anthropic from '@anthropic-ai/sdk'
import { describe, expect, it } from 'vitest'
import { assembleMessage } from '../../testing/model/script.js'
import { ModelApiError } from '../../core/model/types.js'
import { DEFAULT_STREAM_IDLE_TIMEOUT_MS, streamIdleTimeoutMs } from '../../runtime/model/stream-idle.js'
import { collect, failure, fakeModel, request } from './helpers.js'

describe('the Anthropic adapter against the fake Messages API', () => {
  it('streams a text reply in the API event order', async () => {
    const text = 'The quick brown fox jumps over the lazy dog, twice over.'
    const { model, server } = await fakeModel([{ reply: text }])
    const events = await collect(model)
    const types = events.map((e) => e.type)
    expect(types[0]).toBe('message_start')
    expect(types[1]).toBe('content_block_start')
    expect(types.slice(-3)).toEqual(['content_block_stop', 'message_delta', 'message_stop'])
    const deltas = events.filter((e) => e.type === 'content_block_delta')
    expect(deltas.length).toBeGreaterThan(1)
    expect(deltas.map((e) => (e.delta.type === 'text_delta' ? e.delta.text : '')).join('')).toBe(text)
    const message = assembleMessage(events)
    expect(message.content).toEqual([{ type: 'text', text, citations: null }])
    expect(message.stop_reason).toBe('end_turn')
    expect(message.model).toBe('claude-sonnet-4-5')
    expect(server.requests).toHaveLength(1)
    expect(server.requests[0]!.path).toBe('/v1/messages')
    expect(server.requests[0]!.body.stream).toBe(true)
    const headers = server.requests[0]!.headers
    expect(headers['x-api-key'] ?? headers.authorization).toContain('test')
  })

  it('sends an API key as x-api-key and a token as Authorization, each alone', async () => {
    const { model, server } = await fakeModel([{ reply: 'a' }, { reply: 'b' }], { apiKey: undefined, env: { ANTHROPIC_API_KEY: 'sk-env' } })
    await collect(model)
    const token = await fakeModel([{ reply: 'a' }], { apiKey: undefined, env: { ANTHROPIC_AUTH_TOKEN: 'tok-env' } })
    await collect(token.model)
    expect(server.requests[0]!.headers).toMatchObject({ 'x-api-key': 'sk-env' })
    expect(server.requests[0]!.headers).not.toHaveProperty('authorization')
    expect(token.server.requests[0]!.headers).toMatchObject({ authorization: 'Bearer tok-env' })
    expect(token.server.requests[0]!.headers).not.toHaveProperty('x-api-key')
  })

  it('streams tool input as input_json_delta pieces that reassemble to the input', async () => {
    const input = { command: 'ls -la /tmp/some/long/directory/name', description: 'list files' }
    const { model } = await fakeModel([{ reply: [{ text: 'Let me look.' }, { tool_use: { name: 'Bash', input } }] }])
    const events = await collect(model)
    const pieces = events.flatMap((e) => (e.type === 'content_block_delta' && e.delta.type === 'input_json_delta' ? [e.delta.partial_json] : []))
    expect(pieces.length).toBeGreaterThan(1)
    expect(JSON.parse(pieces.join(''))).toEqual(input)
    const start = events.find((e) => e.type === 'content_block_start' && e.index === 1)
    expect(start).toMatchObject({ content_block: { type: 'tool_use', id: 'toolu_0_1', name: 'Bash', input: {} } })
    const message = assembleMessage(events)
    expect(message.stop_reason).toBe('tool_use')
    expect(message.content[1]).toMatchObject({ type: 'tool_use', input })
  })

  it('streams thinking, then its signature', async () => {
    const { model } = await fakeModel([{ reply: [{ thinking: 'Hmm, let me consider this carefully.', signature: 'sig-abc' }, { text: 'Done.' }] }])
    const events = await collect(model)
    const deltas = events.flatMap((e) => (e.type === 'content_block_delta' && e.index === 0 ? [e.delta.type] : []))
    expect(deltas.at(-1)).toBe('signature_delta')
    expect(deltas.slice(0, -1).every((t) => t === 'thinking_delta')).toBe(true)
    expect(assembleMessage(events).content[0]).toEqual({ type: 'thinking', thinking: 'Hmm, let me consider this carefully.', signature: 'sig-abc' })
  })

  it('reports usage and stop reason from the script', async () => {
    const usage = { input_tokens: 1200, output_tokens: 34, cache_read_input_tokens: 900, cache_creation_input_tokens: 10 }
    const { model } = await fakeModel([{ reply: 'cut', stop_reason: 'max_tokens', usage, model: 'claude-opus-4-5' }])
    const events = await collect(model)
    const start = events[0]
    expect(start?.type === 'message_start' && start.message.usage).toMatchObject({ input_tokens: 1200, cache_read_input_tokens: 900 })
    const delta = events.find((e) => e.type === 'message_delta')
    expect(delta).toMatchObject({ delta: { stop_reason: 'max_tokens', stop_sequence: null }, usage: { output_tokens: 34 } })
    expect(assembleMessage(events).model).toBe('claude-opus-4-5')
  })

  it('answers a non-streaming request with the assembled message', async () => {
    const { server } = await fakeModel([{ reply: [{ text: 'short answer' }, { tool_use: { name: 'Read', input: { path: 'a.ts' } } }] }])
    const client = new Anthropic({ apiKey: 'test', baseURL: server.url, maxRetries: 0 })
    const message = await client.messages.create({ model: request.model, max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] })
    expect(message.content).toMatchObject([{ type: 'text', text: 'short answer' }, { type: 'tool_use', name: 'Read', input: { path: 'a.ts' } }])
    expect(message.stop_reason).toBe('tool_use')
  })

  it('retries a connection cut inside the first content block; the retry starts over with its own message_start', async () => {
    const { model, server } = await fakeModel([{ reply: 'a reply that will not finish streaming at all', truncateAfter: 3 }, { reply: 'second try' }])
    const retries: unknown[] = []
    const events = await collect(model, request, { onRetry: (info) => retries.push(info) })
    expect(retries).toMatchObject([{ attempt: 1, error: 'stream', status: null, message: expect.stringContaining('cut off before message_stop') }])
    expect(events.filter((e) => e.type === 'message_start')).toHaveLength(2)
    expect(assembleMessage(events.slice(events.findLastIndex((e) => e.type === 'message_start'))).content).toMatchObject([{ text: 'second try' }])
    expect(server.requests).toHaveLength(2)
  })

  it('fails mid-stream, unretried, once a content block completed', async () => {
    const { model, server } = await fakeModel([{ reply: [{ text: 'done block' }, { text: 'a second block that will be cut off' }], truncateAfter: 6 }, { reply: 'unused' }])
    const seen: string[] = []
    const err = await failure(model, request, { onRetry: () => seen.push('retry') })
    expect(err).toBeInstanceOf(ModelApiError)
    expect(err).toMatchObject({ type: 'stream', midStream: true, retryable: false })
    expect((err as Error).message).toContain('the response stream was cut off before message_stop')
    expect(seen).toEqual([])
    expect(server.requests).toHaveLength(1)
  })

  it('retries a connection cut before any event', async () => {
    const { model } = await fakeModel([{ reply: 'lost', truncateAfter: 0 }, { reply: 'second try' }])
    const retries: unknown[] = []
    const events = await collect(model, request, { onRetry: (info) => retries.push(info) })
    expect(retries).toMatchObject([{ attempt: 1, error: 'connection', status: null }])
    expect(assembleMessage(events).content).toMatchObject([{ text: 'second try' }])
  })

  it('reports an expect mismatch as a 400 naming the difference', async () => {
    const { model } = await fakeModel([{ reply: 'ok', expect: { lastUserText: 'goodbye', model: 'claude-haiku-4-5' } }])
    const err = await failure(model)
    expect(err).toMatchObject({ type: 'invalid_request', status: 400 })
    const message = (err as Error).message
    expect(message).toContain('step 0')
    expect(message).toContain('"hello there" does not contain "goodbye"')
    expect(message).toContain('model is "claude-sonnet-4-5", expected "claude-haiku-4-5"')
  })

  it('checks tool results in the last user message', async () => {
    const { model } = await fakeModel([{ reply: 'ok', expect: { toolResults: 1, lastUserText: 'more' } }])
    const req = {
      ...request,
      messages: [...request.messages, { role: 'assistant' as const, content: [{ type: 'tool_use' as const, id: 't1', name: 'X', input: {} }] }, {
        role: 'user' as const,
        content: [{ type: 'tool_result' as const, tool_use_id: 't1', content: 'r' }, { type: 'text' as const, text: 'and more' }],
      }],
    }
    expect(assembleMessage(await collect(model, req)).content).toMatchObject([{ text: 'ok' }])
  })

  it('says the script is exhausted, without retrying', async () => {
    const { model } = await fakeModel([{ reply: 'one' }])
    await collect(model)
    const retries: unknown[] = []
    const err = await failure(model, request, { onRetry: (i) => retries.push(i) })
    expect(err).toMatchObject({ type: 'server_error', status: 500 })
    expect((err as Error).message).toContain('model script exhausted after 1 steps')
    expect(retries).toEqual([])
  })

  it('turns an abort before the response into aborted', async () => {
    const { model } = await fakeModel([{ reply: 'slow', delayMs: 2_000 }])
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 20)
    const err = await failure(model, request, { signal: controller.signal })
    expect(err).toMatchObject({ type: 'aborted' })
  })

  it('turns an abort mid-stream into aborted', async () => {
    const { model } = await fakeModel([{ reply: 'a long reply streamed slowly, piece by piece, to be cut', chunkDelayMs: 30 }])
    const controller = new AbortController()
    const events: string[] = []
    let caught: unknown
    try {
      for await (const event of model.stream(request, { signal: controller.signal })) {
        events.push(event.type)
        if (events.length === 2) controller.abort()
      }
    } catch (err) {
      caught = err
    }
    expect(caught).toMatchObject({ type: 'aborted' })
    expect(events.length).toBeLessThan(6)
  })

  it('gives up on a response silent past the idle timeout, and counts only the time spent waiting on the server', async () => {
    const { model, server } = await fakeModel([{ reply: 'hi', stallAfter: 0 }, { reply: 'hi there' }], { streamIdleTimeoutMs: 200 })
    const retries: string[] = []
    const events: string[] = []
    for await (const event of model.stream(request, { onRetry: (r) => retries.push(r.message) })) {
      events.push(event.type)
      // Holding an event longer than the idle timeout is the caller's time, not the server's silence.
      if (events.length === 1) await new Promise((r) => setTimeout(r, 400))
    }
    expect(retries).toEqual(['stream idle timeout: no event from the API for 200 ms (no event received; MODLOOP_STREAM_IDLE_TIMEOUT_MS sets the limit)'])
    expect(events.at(-1)).toBe('message_stop')
    expect(server.requests).toHaveLength(2)
  })
})

describe('the stream idle timeout setting', () => {
  it('is the option, then MODLOOP_STREAM_IDLE_TIMEOUT_MS, then CLAUDE_STREAM_IDLE_TIMEOUT_MS, then 90 s', () => {
    expect(streamIdleTimeoutMs(5, { MODLOOP_STREAM_IDLE_TIMEOUT_MS: '7' })).toBe(5)
    expect(streamIdleTimeoutMs(undefined, { MODLOOP_STREAM_IDLE_TIMEOUT_MS: '7', CLAUDE_STREAM_IDLE_TIMEOUT_MS: '9' })).toBe(7)
    expect(streamIdleTimeoutMs(undefined, { CLAUDE_STREAM_IDLE_TIMEOUT_MS: '9' })).toBe(9)
    expect(streamIdleTimeoutMs(undefined, { MODLOOP_STREAM_IDLE_TIMEOUT_MS: 'soon' })).toBe(DEFAULT_STREAM_IDLE_TIMEOUT_MS)
    expect(DEFAULT_STREAM_IDLE_TIMEOUT_MS).toBe(90_000)
  })
})

describe('ANTHROPIC_BETAS', () => {
  it("adds its betas to every request's anthropic-beta, after the request's own, each once", async () => {
    const { model, server } = await fakeModel([{ reply: 'a' }, { reply: 'b' }], { env: { ANTHROPIC_BETAS: 'one-beta, two-beta,,' } })
    await collect(model)
    await collect(model, { ...request, betas: ['two-beta', 'own-beta'] })
    expect(server.requests.map((r) => r.headers['anthropic-beta'])).toEqual(['one-beta,two-beta', 'two-beta,own-beta,one-beta'])
  })
})

describe('CLAUDE_CODE_EXTRA_BODY', () => {
  it("lays its fields over every request's body, merging output_config, and is ignored when not an object", async () => {
    const extra = JSON.stringify({ temperature: 0.5, max_tokens: 7, output_config: { x: 2 }, metadata: { foo: 1 } })
    const { model, server } = await fakeModel([{ reply: 'a' }], { env: { CLAUDE_CODE_EXTRA_BODY: extra } })
    await collect(model, { ...request, output_config: { effort: 'low' }, metadata: { user_id: 'u' } } as typeof request)
    expect(server.requests[0]!.body).toMatchObject({ temperature: 0.5, max_tokens: 7, output_config: { effort: 'low', x: 2 }, metadata: { foo: 1 }, stream: true })
    expect(server.requests[0]!.body.metadata).toEqual({ foo: 1 })
    for (const bad of ['{bad', '[1,2]', '"text"']) {
      const other = await fakeModel([{ reply: 'a' }], { env: { CLAUDE_CODE_EXTRA_BODY: bad } })
      await collect(other.model)
      expect(other.server.requests[0]!.body.max_tokens).toBe(request.max_tokens)
    }
  })
})
