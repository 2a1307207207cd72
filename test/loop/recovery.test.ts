import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { defineMod } from '../../core/mod/define.js'
import { assertNoDanglingToolUse, runScript, toolsMod } from './helpers.js'
import { query } from '../../entry.js'
import { AbortError } from '../../index.js'
import { startFakeAnthropic } from '../helpers/fake-anthropic.js'
import { channel } from '../helpers/channel.js'

const echo = (text: string) => ({ tool_use: { name: 'Echo', input: { text } } })

describe('terminal reasons and recovery', () => {
  it('max_tokens: continues with a nudge, then answers', async () => {
    const run = await runScript([
      { reply: 'Part one', stop_reason: 'max_tokens' },
      { reply: 'part two', expect: { lastUserText: 'cut off by the output token limit' } },
    ])
    expect(run.result).toMatchObject({ subtype: 'success', result: 'part two', terminal_reason: 'completed' })
  })

  it('model_context_window_exceeded: continues as after max_tokens', async () => {
    const run = await runScript([
      { reply: 'Part one', stop_reason: 'model_context_window_exceeded' },
      { reply: 'part two', expect: { lastUserText: 'cut off by the output token limit' } },
    ])
    expect(run.result).toMatchObject({ subtype: 'success', result: 'part two', terminal_reason: 'completed' })
    expect(run.requests[1]!.body.messages.at(-2)).toMatchObject({ role: 'assistant', content: [{ type: 'text', text: 'Part one' }] })
  })

  it('max_tokens: gives up after 3 continuations', async () => {
    const cut = { reply: 'more', stop_reason: 'max_tokens' }
    const run = await runScript([cut, cut, cut, cut], 'go', { maxTokens: 5000 })
    // As Claude Code ends it: an API failure whose text names the cap, shown as a synthetic assistant message too.
    const text = "API Error: Claude's response exceeded the 5000 output token maximum. To configure this behavior, set the CLAUDE_CODE_MAX_OUTPUT_TOKENS environment variable."
    expect(run.result).toMatchObject({ subtype: 'success', terminal_reason: 'api_error', is_error: true, result: text, stop_reason: 'max_tokens', api_error_status: null })
    expect(run.messages.at(-2)).toMatchObject({ type: 'assistant', error: 'max_output_tokens', message: { model: '<synthetic>', content: [{ text }] } })
    expect(run.requests).toHaveLength(4)
  })

  it('malformed tool JSON: asks once more, and the replacement supersedes the first attempt', async () => {
    const run = await runScript([
      { reply: [{ text: 'first try' }, { tool_use_raw: { name: 'Echo', json: '{"text": "oops' } }] },
      { reply: [echo('ok')] },
      { reply: 'done' },
    ])
    expect(run.result).toMatchObject({ subtype: 'success', result: 'done' })
    const assistants = run.messages.filter((m) => m.type === 'assistant') as any[]
    const firstTry = assistants[0]
    const replacement = assistants[1]
    expect(replacement.supersedes).toEqual([firstTry.uuid])
    expect(run.requests[1]!.body.messages).toHaveLength(1)
    assertNoDanglingToolUse(run.requests)
  })

  it('malformed tool JSON: a call of the retracted response that had not started never runs', async () => {
    const log: string[] = []
    // Touch waits for the read-only Wait (300 ms) to end; the response is retracted before it does.
    const run = await runScript([
      { reply: [{ tool_use: { name: 'Wait', input: { ms: 300, label: 'first' } } }, { tool_use: { name: 'Touch', input: { label: 'late' } } }, { tool_use_raw: { name: 'Echo', json: '{"text": "oops' } }] },
      { reply: [echo('ok')] },
      { reply: 'done' },
    ], 'go', { mods: [toolsMod(log)] })
    expect(run.result).toMatchObject({ subtype: 'success', result: 'done' })
    expect(log.filter((l) => l.startsWith('touch'))).toEqual([])
    assertNoDanglingToolUse(run.requests)
  })

  it('malformed tool JSON twice: malformed_tool_use_exhausted', async () => {
    const bad = { reply: [{ tool_use_raw: { name: 'Echo', json: '{nope' } }] }
    const run = await runScript([bad, bad])
    expect(run.result).toMatchObject({ subtype: 'error_during_execution', terminal_reason: 'malformed_tool_use_exhausted', is_error: true })
  })

  it('a thinking-only reply gets one nudge', async () => {
    const run = await runScript([
      { reply: [{ thinking: 'hmm', signature: 'sig' }] },
      { reply: 'the answer', expect: { lastUserText: 'without answering' } },
    ])
    expect(run.result).toMatchObject({ subtype: 'success', result: 'the answer' })
  })

  it('maxTurns: stops after the last allowed tool round with error_max_turns', async () => {
    const run = await runScript([{ reply: [echo('1')] }, { reply: [echo('2')] }, { reply: 'never' }], 'go', { maxTurns: 2 })
    expect(run.result).toMatchObject({ subtype: 'error_max_turns', terminal_reason: 'max_turns', num_turns: 3, is_error: true })
    expect(run.requests).toHaveLength(2)
    expect(String(run.error)).toContain('maximum number of turns')
    assertNoDanglingToolUse(run.requests)
  })

  it('maxBudgetUsd: ends with error_max_budget_usd, answering the pending tool calls', async () => {
    const run = await runScript([{ reply: [echo('1')], usage: { input_tokens: 1_000_000 } }, { reply: 'never' }], 'go', { maxBudgetUsd: 0.5 })
    expect(run.result).toMatchObject({ subtype: 'error_max_budget_usd', terminal_reason: 'budget_exhausted' })
    expect(run.requests).toHaveLength(1)
  })

  it('maxBudgetUsd: a call still waiting its turn when the budget runs out is answered as not run; one running finishes', async () => {
    const log: string[] = []
    // The writing call waits for the read-only one (300 ms), which outlasts the response: the budget is found spent first.
    const slow = { tool_use: { name: 'Wait', input: { ms: 300, label: 'first' } } }
    const late = { tool_use: { name: 'Touch', input: { label: 'late' } } }
    const run = await runScript([{ reply: [slow, late], usage: { input_tokens: 1_000_000 } }, { reply: 'never' }], 'go', { maxBudgetUsd: 0.5, mods: [toolsMod(log)] })
    expect(run.result).toMatchObject({ subtype: 'error_max_budget_usd', terminal_reason: 'budget_exhausted' })
    expect(log.filter((l) => l.startsWith('touch'))).toEqual([])
    const results = run.messages.flatMap((m) => (m.type === 'user' && Array.isArray(m.message.content) ? m.message.content : [])).filter((b: any) => b.type === 'tool_result') as any[]
    expect(results.map((r) => r.content)).toEqual(['waited first', 'Not run: the budget for this session is used up.'])
  })

  it('an API failure after retries: success subtype with is_error and api_error', async () => {
    const run = await runScript([{ error: { status: 500 }, times: 4 }], 'go', { env: { MODLOOP_MAX_RETRIES: '3' } })
    expect(run.result).toMatchObject({ subtype: 'success', is_error: true, terminal_reason: 'api_error' })
    expect(run.result.result).toContain('500')
    expect(run.messages.filter((m) => m.type === 'system' && m.subtype === 'api_retry')).toHaveLength(3)
  })

  it('an API failure that ends the turn comes as an assistant message too, with its kind, and stays out of the history', async () => {
    let history: unknown[] = []
    const spy = defineMod({ name: 'spy', register: (on) => on('session.end', ($, e, next) => { history = $.session.messages() as unknown[]; return next(e) }) })
    const run = await runScript([{ error: { status: 400, message: 'messages: bad thing' } }], 'go', { mods: [toolsMod(), spy] })
    expect(history).toEqual([{ role: 'user', content: [expect.objectContaining({ type: 'text', text: 'go' })] }])
    const failed = run.messages.filter((m) => m.type === 'assistant')
    expect(failed).toEqual([expect.objectContaining({ error: 'invalid_request', is_api_error_message: true, api_error_status: 400, parent_tool_use_id: null })])
    expect((failed[0] as any).message).toMatchObject({ model: '<synthetic>', role: 'assistant', content: [{ type: 'text', text: run.result.result }] })
    expect(run.messages.at(-2)).toBe(failed[0])
    const auth = await runScript([{ error: { status: 401, type: 'authentication_error' } }], 'go')
    expect(auth.messages.find((m) => m.type === 'assistant')).toMatchObject({ error: 'authentication_failed' })
  })

  it('429 then success: one api_retry message and the answer', async () => {
    const run = await runScript([{ error: { status: 429 } }, { reply: 'ok' }])
    const retries = run.messages.filter((m) => m.type === 'system' && m.subtype === 'api_retry') as any[]
    expect(retries).toHaveLength(1)
    expect(retries[0]).toMatchObject({ attempt: 1, error_status: 429, error: 'rate_limit' })
    expect(run.result).toMatchObject({ subtype: 'success', result: 'ok' })
  })

  it('fallbackModel takes over when the model stays overloaded', async () => {
    const run = await runScript([{ error: { status: 529 }, times: 3 }, { reply: 'from fallback', expect: { model: 'claude-haiku-4-5' } }], 'go', {
      model: 'claude-opus-4-5', fallbackModel: 'claude-haiku-4-5', env: { MODLOOP_MAX_RETRIES: '2' },
    })
    expect(run.result).toMatchObject({ subtype: 'success', result: 'from fallback' })
    expect(Object.keys(run.result.modelUsage)).toContain('claude-haiku-4-5')
  })

  it('a refusal is retried once on the fallback model, the refused reply retracted', async () => {
    const run = await runScript([{ reply: 'I cannot help with that', stop_reason: 'refusal' }, { reply: 'Here you go', expect: { model: 'claude-haiku-4-5' } }], 'go', { fallbackModel: 'claude-haiku-4-5' })
    expect(run.result).toMatchObject({ subtype: 'success', result: 'Here you go', is_error: false })
    expect(run.requests[1]!.body.messages).toHaveLength(1)
    const assistants = run.messages.filter((m) => m.type === 'assistant') as any[]
    expect(assistants[1].supersedes).toEqual([assistants[0].uuid])
  })

  it('a refusal without a fallback ends the turn as an error', async () => {
    const run = await runScript([{ reply: 'I cannot help with that', stop_reason: 'refusal' }])
    expect(run.result).toMatchObject({ subtype: 'success', is_error: true, stop_reason: 'refusal' })
  })

  it('a stream cut after a complete tool call keeps the call, runs it and goes on', async () => {
    const run = await runScript([
      { reply: [echo('kept'), { text: 'this text is cut in the middle of its block' }], truncateAfter: 8 },
      { reply: 'recovered' },
    ])
    expect(run.result).toMatchObject({ subtype: 'success', result: 'recovered' })
    expect(run.requests[1]!.body.messages[2].content[0]).toMatchObject({ type: 'tool_result', content: 'kept' })
    assertNoDanglingToolUse(run.requests)
  })

  it('a handler that throws inside turn.step is skipped and the turn completes', async () => {
    const broken = defineMod({ name: 'broken-step', register: (on) => on('turn.step', async function* () { throw new Error('step handler bug') }) })
    const run = await runScript([{ reply: 'fine' }], 'go', { mods: [toolsMod(), broken] })
    expect(run.result).toMatchObject({ subtype: 'success', result: 'fine' })
  })

  it('abort while tools run: aborted_tools, every tool_use answered', async () => {
    const controller = new AbortController()
    const log: string[] = []
    const aborter = defineMod({ name: 'aborter', register: (on) => on('tool.call', (_$, e, next) => { setTimeout(() => controller.abort(), 50); return next(e) }) })
    const run = await runScript([{ reply: [{ tool_use: { name: 'Wait', input: { ms: 5_000, label: 'a' } } }, echo('x')] }, { reply: 'never' }], 'go', {
      abortController: controller, mods: [toolsMod(log), aborter],
    })
    expect(run.result).toMatchObject({ subtype: 'error_during_execution', terminal_reason: 'aborted_tools' })
    const users = run.messages.filter((m) => m.type === 'user') as any[]
    expect(users).toHaveLength(2)
    expect(users[0].message.content[0]).toMatchObject({ is_error: true, content: '[Request interrupted by user for tool use]' })
  })

  it('abort while streaming: aborted_streaming', async () => {
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 100)
    const run = await runScript([{ reply: 'slow slow slow slow slow slow slow slow slow slow', chunkDelayMs: 50 }], 'go', { abortController: controller })
    expect(run.result).toMatchObject({ subtype: 'error_during_execution', terminal_reason: 'aborted_streaming' })
    // As the Agent SDK's query() does: the aborted turn's result, then an AbortError.
    expect(run.error).toBeInstanceOf(AbortError)
  })

  it('a caller that stops iterating mid-turn (break) aborts the turn: its running tool call hears it, its request is dropped', async () => {
    const server = await startFakeAnthropic({ script: [{ reply: [{ tool_use: { name: 'Hold', input: {} } }, { text: 'a long tail '.repeat(40) }], chunkDelayMs: 20 }] })
    let started!: () => void
    let heard!: () => void
    const running = new Promise<void>((r) => { started = r })
    const aborted = new Promise<void>((r) => { heard = r })
    const hold = defineMod({
      name: 'hold',
      register: (on) => on('session.start', async ($, e, next) => {
        await $.tool.register({
          name: 'Hold', description: 'Waits for its abort', input: z.object({}), isReadOnly: true,
          call: (_i: unknown, ctx: { signal: AbortSignal }) => new Promise((resolve) => {
            started()
            ctx.signal.addEventListener('abort', () => { heard(); resolve({ result: 'aborted' }) }, { once: true })
          }),
        } as never)
        return next(e)
      }),
    })
    try {
      const q = query({ prompt: 'go', options: { bare: true, cwd: process.cwd(), mods: [hold], includePartialMessages: true, env: { ...process.env, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 't' } } })
      // The read-only call starts as its block completes; the text after it is still streaming when the caller leaves.
      for await (const m of q) {
        if (m.type === 'stream_event' && (m.event as { type: string; index?: number }).type === 'content_block_delta' && (m.event as { index?: number }).index === 1) { await running; break }
      }
      // Without the abort the call (and the half-read response) would wait forever: the test would time out here.
      await aborted
    } finally {
      await server.close()
    }
  })

  it('abort in a streaming-input session: the stream ends by throwing AbortError, the input still waiting is not run', async () => {
    const server = await startFakeAnthropic({ script: [{ reply: 'slow slow slow slow slow slow slow slow slow slow', chunkDelayMs: 50 }, { reply: 'never' }] })
    const controller = new AbortController()
    const ch = channel()
    ch.send('first')
    const q = query({ prompt: ch.input, options: { bare: true, cwd: process.cwd(), mods: [toolsMod()], abortController: controller, includePartialMessages: true, env: { ...process.env, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 't' } } })
    const seen: string[] = []
    let thrown: unknown
    try {
      for await (const m of q) {
        seen.push(m.type)
        if (m.type === 'stream_event' && seen.filter((t) => t === 'stream_event').length === 3) { controller.abort(); ch.send('second') }
      }
    } catch (err) {
      thrown = err
    } finally {
      await server.close()
    }
    expect(thrown).toBeInstanceOf(AbortError)
    expect(seen.filter((t) => t === 'result')).toHaveLength(1)
    expect(server.requests).toHaveLength(1)
  })
})
