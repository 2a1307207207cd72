import { describe, expect, it } from 'vitest'
import { createScriptedModel } from '../../testing/model/scripted.js'
import { assembleMessage } from '../../testing/model/script.js'
import type { RetryInfo } from '../../core/model/types.js'
import { collect, failure, fakeModel, request } from './helpers.js'

const script = {
  steps: [
    { reply: [{ thinking: 'Think first, then act.', signature: 's1' }, { text: 'Reading the file now.' }, { tool_use: { name: 'Read', input: { path: 'src/index.ts' } } }] },
    { reply: 'All done — the file exports two functions.', usage: { input_tokens: 50, output_tokens: 12 } },
  ],
}

describe('the scripted model', () => {
  it('streams exactly what the fake server streams for the same script', async () => {
    const { model: http } = await fakeModel(script)
    const local = createScriptedModel(script)
    const second = { ...request, messages: [...request.messages, { role: 'user' as const, content: 'next' }] }
    expect(await collect(local)).toEqual(await collect(http))
    expect(await collect(local, second)).toEqual(await collect(http, second))
  })

  it('records the requests it received', async () => {
    const model = createScriptedModel(script, { name: 'demo' })
    await collect(model)
    expect(model.name).toBe('demo')
    expect(model.requests).toEqual([request])
    expect(model.requests[0]).not.toBe(request)
  })

  it('fails and retries like the real adapter', async () => {
    const model = createScriptedModel([{ error: { status: 529 }, times: 2 }, { error: { status: 500 } }, { reply: 'ok' }], { retryBaseMs: 1 })
    const seen: RetryInfo[] = []
    const events = await collect(model, request, { onRetry: (i) => seen.push(i) })
    expect(seen.map((i) => [i.status, i.error])).toEqual([[529, 'overloaded'], [529, 'overloaded'], [500, 'server_error']])
    expect(seen[0]!.delayMs).toBe(0)
    expect(assembleMessage(events).content).toMatchObject([{ text: 'ok' }])
    expect(model.requests).toHaveLength(4)
  })

  it('an events step streams its events as they are; an error event fails the attempt as the API error it carries', async () => {
    const start = { type: 'message_start', message: { id: 'msg_raw', type: 'message', role: 'assistant', model: 'm', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } } }
    const text = [{ type: 'content_block_start', index: 0, content_block: { type: 'mystery', data: 'x' } }, { type: 'content_block_stop', index: 0 }]
    const steps = [
      { events: [start, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }] },
      { events: [start, ...text, { type: 'message_delta', delta: { stop_reason: 'pause_turn', stop_sequence: null }, usage: { output_tokens: 3 } }, { type: 'message_stop' }] },
    ]
    for (const model of [(await fakeModel(steps)).model, createScriptedModel(steps, { retryBaseMs: 1 })]) {
      const seen: RetryInfo[] = []
      const events = await collect(model, request, { onRetry: (i) => seen.push(i) })
      expect(seen.map((i) => [i.error, i.message])).toEqual([['overloaded', 'Overloaded']])
      expect(events.map((e) => e.type)).toEqual(['message_start', 'message_start', 'content_block_start', 'content_block_stop', 'message_delta', 'message_stop'])
      expect(assembleMessage(events)).toMatchObject({ content: [{ type: 'mystery', data: 'x' }], stop_reason: 'pause_turn' })
    }
  })

  it('does not retry a 400 or an exhausted script', async () => {
    const model = createScriptedModel([{ error: { status: 400 } }], { retryBaseMs: 1 })
    expect(await failure(model)).toMatchObject({ type: 'invalid_request', status: 400 })
    const err = await failure(model)
    expect(err).toMatchObject({ type: 'server_error', status: 500 })
    expect((err as Error).message).toContain('model script exhausted after 1 steps')
    expect(model.requests).toHaveLength(2)
  })

  it('cuts a stream after truncateAfter events, mid-stream', async () => {
    const model = createScriptedModel([{ reply: 'this is cut', truncateAfter: 2 }, { reply: 'unused' }], { retryBaseMs: 1, maxRetries: 0 })
    const seen: string[] = []
    let caught: unknown
    try {
      for await (const event of model.stream(request)) seen.push(event.type)
    } catch (err) {
      caught = err
    }
    expect(seen).toEqual(['message_start', 'content_block_start'])
    expect(caught).toMatchObject({ type: 'stream', midStream: true, message: expect.stringContaining('cut off before message_stop') })
  })

  it('retries a stream cut before any block completed, as the Anthropic adapter does', async () => {
    const model = createScriptedModel([{ reply: 'this is cut', truncateAfter: 2 }, { reply: 'whole' }], { retryBaseMs: 1 })
    const seen: string[] = []
    for await (const event of model.stream(request)) seen.push(event.type)
    expect(seen.filter((t) => t === 'message_start')).toHaveLength(2)
    expect(seen.at(-1)).toBe('message_stop')
    expect(model.requests).toHaveLength(2)
  })

  it('gives up on a stalled step after the idle timeout and retries it, as the Anthropic adapter does; a malformed frame is a cut', async () => {
    const retries: string[] = []
    const model = createScriptedModel([{ reply: 'x', stallAfter: 1 }, { reply: 'y', malformedAfter: 0 }, { reply: 'whole' }], { retryBaseMs: 1, streamIdleTimeoutMs: 50 })
    const seen: string[] = []
    for await (const event of model.stream(request, { onRetry: (r) => retries.push(`${r.error}: ${r.message}`) })) seen.push(event.type)
    expect(retries).toEqual([
      'stream: stream idle timeout: no event from the API for 50 ms (partial response received; MODLOOP_STREAM_IDLE_TIMEOUT_MS sets the limit)',
      'connection: the response stream held a frame that is not JSON, after 0 events (step 1)',
    ])
    expect(seen.at(-1)).toBe('message_stop')
  })

  it('answers an expect mismatch with a 400', async () => {
    const model = createScriptedModel([{ reply: 'ok', expect: { toolResults: 2 } }])
    const err = await failure(model)
    expect(err).toMatchObject({ type: 'invalid_request', status: 400 })
    expect((err as Error).message).toContain('has 0 tool results, expected 2')
  })

  it('honours an abort during its delays', async () => {
    const model = createScriptedModel([{ reply: 'slow', delayMs: 2_000 }])
    const err = await failure(model, request, { signal: AbortSignal.timeout(20) })
    expect(err).toMatchObject({ type: 'aborted' })
  })

  it('rejects a malformed script when created', () => {
    expect(() => createScriptedModel([{ reply: 'ok' }, { error: {} }])).toThrow(expect.objectContaining({ code: 'MODLOOP_ERR_SCRIPT', field: 'steps[1].error.status' }))
  })
})
