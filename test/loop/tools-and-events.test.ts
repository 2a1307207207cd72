import { describe, expect, it } from 'vitest'
import { defineMod } from '../../core/mod/define.js'
import type { EventName } from '../../core/events/catalog.js'
import { query } from '../../entry.js'
import type { SDKMessage } from '../../core/loop/messages.js'
import { startFakeAnthropic } from '../helpers/fake-anthropic.js'
import { runScript, toolsMod } from './helpers.js'
import { systemText } from '../helpers/system-text.js'

const wait = (label: string, ms: number) => ({ tool_use: { name: 'Wait', input: { ms, label } } })
const times = (log: string[], what: string) => Number(log.find((l) => l.startsWith(what))!.split(' ')[2])

/** A mod that logs `stream-end x <ms>` as each response's stream ends, in the log the tools write. */
const streamEnds = (log: string[]) => defineMod({ name: 'clock', register: (on) => on('turn.step', async function* (_$, e, next) {
  const s = next(e)
  for await (const c of s) {
    if (c.kind === 'stop') log.push(`stream-end x ${Math.round(performance.now())}`)
    yield c
  }
  return await s.result
}) })

describe('tool orchestration', () => {
  it('runs consecutive read-only calls concurrently and returns results in order', async () => {
    const log: string[] = []
    const run = await runScript([{ reply: [wait('a', 150), wait('b', 150), wait('c', 150)] }, { reply: 'done' }], 'go', { mods: [toolsMod(log)] })
    const starts = ['a', 'b', 'c'].map((l) => times(log, `start ${l}`))
    const ends = ['a', 'b', 'c'].map((l) => times(log, `end ${l}`))
    expect(Math.max(...starts)).toBeLessThan(Math.min(...ends))
    expect(run.requests[1]!.body.messages[2].content.map((r: any) => r.content)).toEqual(['waited a', 'waited b', 'waited c'])
  })

  it('a writing call is a serial barrier', async () => {
    const log: string[] = []
    await runScript([{ reply: [wait('a', 60), { tool_use: { name: 'Touch', input: { label: 't' } } }, wait('b', 10)] }, { reply: 'done' }], 'go', { mods: [toolsMod(log)] })
    const order = log.map((l) => l.split(' ').slice(0, 2).join(' '))
    expect(order).toEqual(['start a', 'end a', 'touch t', 'start b', 'end b'])
  })

  it('honours the concurrency cap', async () => {
    const log: string[] = []
    const previous = process.env.MODLOOP_MAX_TOOL_USE_CONCURRENCY
    process.env.MODLOOP_MAX_TOOL_USE_CONCURRENCY = '2'
    try {
      await runScript([{ reply: [wait('a', 80), wait('b', 80), wait('c', 80)] }, { reply: 'done' }], 'go', { mods: [toolsMod(log)] })
    } finally {
      if (previous === undefined) delete process.env.MODLOOP_MAX_TOOL_USE_CONCURRENCY
      else process.env.MODLOOP_MAX_TOOL_USE_CONCURRENCY = previous
    }
    expect(times(log, 'start c')).toBeGreaterThanOrEqual(Math.min(times(log, 'end a'), times(log, 'end b')))
  })

  it('starts a read-only call while the rest of the response is still streaming', async () => {
    const log: string[] = []
    const clock = streamEnds(log)
    await runScript([{ reply: [wait('early', 10), { text: 'x'.repeat(160) }], chunkDelayMs: 20 }, { reply: 'done' }], 'go', { mods: [toolsMod(log), clock] })
    expect(times(log, 'end early')).toBeLessThan(times(log, 'stream-end'))
  })

  it('starts the head call while the rest of the response streams, a writing one too; a later one waits its turn', async () => {
    const log: string[] = []
    const clock = streamEnds(log)
    // As Claude Code's executor: a call starts once its block is complete if none is running.
    await runScript([{ reply: [{ tool_use: { name: 'Touch', input: { label: 'first' } } }, { text: 'x'.repeat(160) }], chunkDelayMs: 20 }, { reply: 'done' }], 'go', { mods: [toolsMod(log), clock] })
    expect(log.indexOf('touch first')).toBeGreaterThanOrEqual(0)
    expect(log.indexOf('touch first')).toBeLessThan(log.findIndex((l) => l.startsWith('stream-end')))
    // A writing call after a running read-only one waits for it to end, stream or no stream;
    // and a read-only one after it waits for the write.
    log.length = 0
    await runScript([{ reply: [wait('a', 60), { tool_use: { name: 'Touch', input: { label: 't' } } }, wait('b', 10), { text: 'x'.repeat(80) }], chunkDelayMs: 20 }, { reply: 'done' }], 'go', { mods: [toolsMod(log), clock] })
    expect(log.filter((l) => !l.startsWith('stream-end')).map((l) => l.split(' ').slice(0, 2).join(' '))).toEqual(['start a', 'end a', 'touch t', 'start b', 'end b'])
  })

  it('a failed call never cancels its siblings', async () => {
    const run = await runScript([{ reply: [{ tool_use: { name: 'Boom', input: {} } }, wait('ok', 5)] }, { reply: 'done' }])
    const results = run.requests[1]!.body.messages[2].content
    expect(results[0].is_error).toBe(true)
    expect(results[1]).toMatchObject({ content: 'waited ok' })
  })

  it('tool.call handlers rewrite input and deny; denials are reported', async () => {
    const guard = defineMod({ name: 'guard', register: (on) => {
      on('tool.call', { tool: 'Echo' }, (_$, e, next) => (e.text === 'secret' ? { deny: 'no secrets' } : next({ ...e, text: `${String(e.text)}!` })))
    } })
    const run = await runScript([{ reply: [{ tool_use: { name: 'Echo', input: { text: 'hi' } } }, { tool_use: { name: 'Echo', input: { text: 'secret' } } }] }, { reply: 'done' }], 'go', { mods: [toolsMod(), guard] })
    const results = run.requests[1]!.body.messages[2].content
    expect(results[0]).toMatchObject({ content: 'hi!' })
    expect(results[1]).toMatchObject({ content: 'no secrets', is_error: true })
    expect(run.result.permission_denials).toEqual([{ tool_name: 'Echo', tool_use_id: expect.any(String), tool_input: { text: 'secret' } }])
  })

  it('tool.check is the verdict point: deny and ask (no one to ask headless) both refuse', async () => {
    const perms = defineMod({ name: 'perms', register: (on) => {
      on('tool.check', (_$, e, next) => (e.tool === 'Touch' ? { decision: 'deny', reason: 'read-only session' } : e.tool === 'Wait' ? { decision: 'ask' } : next(e)))
    } })
    const run = await runScript([{ reply: [{ tool_use: { name: 'Touch', input: { label: 'x' } } }, wait('w', 1), { tool_use: { name: 'Echo', input: { text: 'ok' } } }] }, { reply: 'done' }], 'go', { mods: [toolsMod(), perms] })
    const results = run.requests[1]!.body.messages[2].content
    expect(results[0]).toMatchObject({ content: 'read-only session', is_error: true })
    expect(results[1].content).toContain('requires approval')
    expect(results[2]).toMatchObject({ content: 'ok' })
    expect(run.result.permission_denials).toHaveLength(2)
  })

  it('canUseTool answers an ask, and may rewrite the input', async () => {
    const perms = defineMod({ name: 'perms', register: (on) => on('tool.check', () => ({ decision: 'ask' })) })
    const run = await runScript([{ reply: [{ tool_use: { name: 'Echo', input: { text: 'a' } } }] }, { reply: 'done' }], 'go', {
      mods: [toolsMod(), perms],
      canUseTool: async (_name, input) => ({ behavior: 'allow', updatedInput: { ...input, text: 'approved' } }),
    })
    expect(run.requests[1]!.body.messages[2].content[0]).toMatchObject({ content: 'approved' })
  })
})

describe('events on the way', () => {
  it('raises the catalog events in lifecycle order', async () => {
    const seen: string[] = []
    const events: EventName[] = ['session.start', 'prompt.submit', 'turn.start', 'prompt.section', 'prompt.compose', 'tool.describe', 'turn.step', 'tool.call', 'tool.check', 'turn.complete', 'session.end']
    const spy = defineMod({ name: 'spy', register: (on) => {
      for (const ev of events) {
        if (ev === 'turn.step') on('turn.step', async function* (_$, e, next) { seen.push(ev); return yield* next(e) })
        else on(ev, ((_$: unknown, e: unknown, next: (e: unknown) => unknown) => { seen.push(ev); return next(e) }) as never)
      }
    } })
    await runScript([{ reply: [{ tool_use: { name: 'Echo', input: { text: 'x' } } }] }, { reply: 'done' }], 'go', { mods: [toolsMod(), spy] })
    const firstOf = (ev: string) => seen.indexOf(ev)
    expect(seen.filter((s) => s === 'tool.describe')).toHaveLength(4)
    expect(seen.filter((s) => s === 'prompt.section')).toHaveLength(1)
    expect(seen.filter((s) => s === 'turn.step')).toHaveLength(2)
    expect(seen.filter((s) => s === 'prompt.compose')).toHaveLength(2)
    const order = ['session.start', 'prompt.submit', 'turn.start', 'prompt.section', 'turn.step', 'tool.call', 'tool.check', 'turn.complete', 'session.end']
    expect(order.map(firstOf)).toEqual([...order.map(firstOf)].sort((a, b) => a - b))
  })

  it('prompt.section, prompt.compose and tool.describe shape the request', async () => {
    const shaper = defineMod({ name: 'shaper', register: (on) => {
      on('prompt.section', { name: 'intro' }, () => ({ text: 'You are a test agent.' }))
      on('prompt.compose', async (_$, e, next) => {
        const r = await next(e)
        return { sections: [...r.sections, { id: 'shaper:rule', text: 'Always be brief.', scope: 'session' }] }
      })
      on('tool.describe', { tool: 'Echo' }, () => ({ description: 'Repeat text back.' }))
    } })
    const run = await runScript([{ reply: 'ok' }], 'go', { mods: [toolsMod(), shaper] })
    expect(systemText(run.requests[0]!.body)).toBe('You are a test agent.\n\nAlways be brief.')
    expect(run.requests[0]!.body.tools[0]).toMatchObject({ name: 'Echo', description: 'Repeat text back.' })
  })

  it('turn.step handlers can change the model and rewrite the stream that is shown and recorded', async () => {
    const upper = defineMod({ name: 'upper', register: (on) => on('turn.step', async function* (_$, e, next) {
      const s = next({ ...e, model: 'claude-haiku-4-5' })
      for await (const c of s) yield c.kind === 'text' ? { ...c, text: c.text.toUpperCase() } : c
      return await s.result
    }) })
    const run = await runScript([{ reply: 'quiet words', expect: { model: 'claude-haiku-4-5' } }], 'go', { mods: [toolsMod(), upper] })
    expect(run.result.result).toBe('QUIET WORDS')
  })

  it('prompt.submit can drop a prompt: no model request is made', async () => {
    const gate = defineMod({ name: 'gate', register: (on) => on('prompt.submit', () => ({ drop: 'not today' })) })
    const run = await runScript([{ reply: 'never' }], 'go', { mods: [toolsMod(), gate] })
    expect(run.requests).toHaveLength(0)
    expect(run.result).toMatchObject({ terminal_reason: 'hook_stopped', is_error: true, result: 'not today' })
  })

  it('includePartialMessages: stream_events precede each complete assistant message', async () => {
    const run = await runScript([{ reply: 'streamed text' }], 'go', { includePartialMessages: true })
    const types = run.messages.map((m) => (m.type === 'stream_event' ? `se:${(m as any).event.type}` : m.type))
    expect(types[0]).toBe('system')
    expect(types.indexOf('assistant')).toBeGreaterThan(types.indexOf('se:content_block_stop'))
    expect(types).toContain('se:message_start')
    expect(types.at(-1)).toBe('result')
    const text = run.messages.filter((m: any) => m.type === 'stream_event' && m.event.delta?.type === 'text_delta').map((m: any) => m.event.delta.text).join('')
    expect(text).toBe('streamed text')
  })
})

describe('streaming input', () => {
  it('one result per user message, the history carried across turns', async () => {
    const server = await startFakeAnthropic({ script: [{ reply: 'first' }, { reply: 'second', expect: { lastUserText: 'again' } }] })
    async function* input() {
      yield { type: 'user' as const, message: { role: 'user' as const, content: 'hello' }, parent_tool_use_id: null }
      yield { type: 'user' as const, message: { role: 'user' as const, content: [{ type: 'text' as const, text: 'again' }] }, parent_tool_use_id: null }
    }
    const messages: SDKMessage[] = []
    try {
      for await (const m of query({ prompt: input(), options: { bare: true, env: { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test' } } })) messages.push(m)
    } finally {
      await server.close()
    }
    const results = messages.filter((m) => m.type === 'result') as any[]
    expect(results.map((r) => r.result)).toEqual(['first', 'second'])
    expect(server.requests[1]!.body.messages).toHaveLength(3)
    expect(new Set(messages.map((m: any) => m.session_id)).size).toBe(1)
  })
})

describe('slash commands', () => {
  const commands = defineMod({ name: 'cmds', register: (on) => {
    on('session.start', async ($, e, next) => {
      await $.command.register({ name: 'greet', description: 'Say hello' })
      await $.command.register({ name: 'review', description: 'Review a file', argumentHint: '<file>' })
      return next(e)
    })
    on('command.run', { command: 'greet' }, () => ({ output: 'hello from /greet' }))
    on('command.run', { command: 'review' }, (_$, e) => ({ prompt: `Review ${e.args} carefully.` }))
  } })

  it('a command can print output without a model call', async () => {
    const run = await runScript([], '/greet', { mods: [commands] })
    expect(run.requests).toHaveLength(0)
    expect(run.result).toMatchObject({ subtype: 'success', result: 'hello from /greet', is_error: false })
  })

  it('a command can expand into the prompt the model reads', async () => {
    const run = await runScript([{ reply: 'reviewed' }], '/review src/a.ts', { mods: [commands] })
    expect((run.requests[0]!.body as any).messages[0].content.slice(0, 2).map((b: any) => b.text)).toEqual(['<command-message>review</command-message>\n<command-name>/review</command-name>\n<command-args>src/a.ts</command-args>\n', 'Review src/a.ts carefully.'])
    expect(run.messages[0]).toMatchObject({ slash_commands: ['greet', 'review', 'reload'] })
  })

  it('in an interactive session an unknown command says so and names close matches; a path is not a command', async () => {
    const run = await runScript([], '/gret', { mods: [commands], isInteractive: true })
    expect(run.result).toMatchObject({ is_error: true, result: 'Unknown command: /gret. Did you mean /greet?' })
    const path = await runScript([{ reply: 'ok' }], '/usr/bin/env fails', { mods: [commands] })
    expect(path.requests).toHaveLength(1)
  })

  it('headless, an unknown command goes to the model as an ordinary prompt, as typed, with a reminder that nothing ran', async () => {
    const run = await runScript([{ reply: 'sure' }], '/nonexistent do it', { mods: [commands] })
    expect(run.requests).toHaveLength(1)
    const [typed, reminder] = (run.requests[0]!.body as any).messages[0].content
    expect(typed.text).toBe('/nonexistent do it')
    expect(reminder.text).toContain('The message starts with /nonexistent, but this session has no command by that name, so nothing ran. The slash commands of this session: /greet')
    expect(reminder.text).toContain('Do not say or imply that the command ran.')
    expect(run.result).toMatchObject({ subtype: 'success', is_error: false, result: 'sure' })
  })
})

describe('@-mentions', () => {
  it('raises prompt.mention per @path with its range; handlers attach context', async () => {
    const seen: unknown[] = []
    const reader = defineMod({ name: 'reader', register: (on) => on('prompt.mention', (_$, e) => {
      seen.push(e)
      return { type: 'file', context: [`contents of ${e.mention}`] }
    }) })
    const run = await runScript([{ reply: 'ok' }], 'look at @src/a.ts#L10-20 and @"my notes.md", mail me@example.com', { mods: [reader], cwd: '/proj' })
    expect(seen).toEqual([
      { mention: 'src/a.ts#L10-20', path: '/proj/src/a.ts', offset: 10, limit: 11 },
      { mention: 'my notes.md', path: '/proj/my notes.md' },
    ])
    const content = (run.requests[0]!.body as any).messages[0].content
    expect(content.map((b: any) => b.text)).toEqual([
      'look at @src/a.ts#L10-20 and @"my notes.md", mail me@example.com',
      '<system-reminder>\ncontents of src/a.ts#L10-20\n</system-reminder>',
      '<system-reminder>\ncontents of my notes.md\n</system-reminder>',
    ])
  })
})

describe('prompt.attachment', () => {
  it('every injected context passes through it: rewrite or drop', async () => {
    const ctx = defineMod({ name: 'ctx', register: (on) => {
      on('prompt.submit', (_$, e, next) => next({ ...e, context: ['keep me', 'drop me'] }))
      on('tool.call', async (_$, e, next) => ({ ...(await next(e)), context: ['from the tool'] }) as never)
    } })
    const filter = defineMod({ name: 'filter', register: (on) => on('prompt.attachment', (_$, e, next) => (e.text === 'drop me' ? { text: null } : next({ ...e, text: `${e.text} (${e.type})` }))) })
    const run = await runScript([{ reply: [{ tool_use: { name: 'Echo', input: { text: 'x' } } }] }, { reply: 'ok' }], 'go', { mods: [toolsMod(), ctx, filter] })
    const body = run.requests[1]!.body as any
    expect(body.messages[0].content.map((b: any) => b.text)).toEqual(['go', '<system-reminder>\nkeep me (prompt_context)\n</system-reminder>'])
    expect(body.messages[2].content.at(-1).text).toBe('<system-reminder>\nfrom the tool (tool_context)\n</system-reminder>')
  })
})
