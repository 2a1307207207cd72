import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages'
import { defineMod } from '../../core/mod/define.js'
import type { SDKMessage, SDKUserMessage } from '../../core/loop/messages.js'
import { query } from '../../entry.js'
import agentMod from '../../mods/agent/index.js'
import transcripts from '../../mods/transcripts/index.js'
import commandsMod from '../../mods/commands/index.js'
import { listSessions } from '../../mods/transcripts/store/list.js'
import { withOptions } from '../helpers/with-options.js'
import { startFakeAnthropic } from '../helpers/fake-anthropic.js'
import { toolsMod } from '../loop/helpers.js'
import { assertAnswered, fileOf, historySpy, readLines, rebuilt, run, tempCwd } from './helpers.js'

let cwd: string
beforeAll(async () => {
  cwd = await tempCwd()
})

const echo = (text: string) => ({ tool_use: { name: 'Echo', input: { text } } })

/** The transcript rebuilds to exactly the history the loop held when the session ended. */
function expectRoundTrip(r: { sessionId: string; history: MessageParam[] }): ReturnType<typeof rebuilt> {
  const path = fileOf(cwd, r.sessionId)
  const back = rebuilt(path)
  expect(back.warnings).toEqual([])
  expect(back.repaired).toBe(0)
  expect(back.messages).toEqual(JSON.parse(JSON.stringify(r.history)))
  return back
}

describe('transcript lines round-trip to the loop history', () => {
  it('text, thinking, parallel tool calls, a failing tool, and the result line', async () => {
    const r = await run([
      { reply: [{ thinking: 'let me see', signature: 'sig' }, { text: 'checking' }, echo('a'), echo('b'), { tool_use: { name: 'Boom', input: {} } }] },
      { reply: 'all done', usage: { input_tokens: 100, output_tokens: 20 } },
    ], 'go', cwd)
    expect(r.result.subtype).toBe('success')
    const back = expectRoundTrip(r)
    expect(back.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant'])
    const lines = readLines(fileOf(cwd, r.sessionId))
    const common = ['uuid', 'parentUuid', 'sessionId', 'timestamp', 'cwd', 'isSidechain', 'userType', 'entrypoint', 'version', 'type']
    for (const line of lines) for (const key of common) expect(line).toHaveProperty(key)
    expect(lines[0]).toMatchObject({ type: 'user', parentUuid: null, isSidechain: false, userType: 'external', sessionId: r.sessionId, cwd, message: { role: 'user', content: [{ type: 'text', text: 'go' }] } })
    lines.slice(1).forEach((l, i) => expect(l.parentUuid).toBe(lines[i]!.uuid))
    const assistants = lines.filter((l) => l.type === 'assistant')
    expect(assistants.map((l) => l.message.content.length)).toEqual([1, 1, 1, 1, 1, 1])
    expect(new Set(assistants.slice(0, 5).map((l) => l.message.id)).size).toBe(1)
    const results = lines.filter((l) => l.type === 'user' && l.message.content[0].type === 'tool_result')
    expect(results.map((l) => l.toolUseResult)).toEqual(['a', 'b', expect.stringContaining('kaboom')])
    expect(lines.at(-1)).toMatchObject({ type: 'system', subtype: 'turn_result', model: 'claude-opus-5-5', result: { subtype: 'success', result: 'all done', num_turns: 2, total_cost_usd: r.result.total_cost_usd } })
  })

  it('a typed command: its header is the prompt line, its body a meta line after it; listed as typed', async () => {
    const dir = await tempCwd()
    mkdirSync(join(dir, '.claude/commands'), { recursive: true })
    writeFileSync(join(dir, '.claude/commands/hello.md'), 'Say hello to $ARGUMENTS.\n')
    const commands = withOptions(commandsMod, { home: join(dir, 'no-home') })
    const r = await run([{ reply: 'hello' }], '/hello world "foo bar"', dir, {}, [commands])
    const back = rebuilt(fileOf(dir, r.sessionId))
    expect(back.messages).toEqual(JSON.parse(JSON.stringify(r.history)))
    const header = '<command-message>hello</command-message>\n<command-name>/hello</command-name>\n<command-args>world "foo bar"</command-args>\n'
    const [prompt, body] = readLines(fileOf(dir, r.sessionId))
    expect(prompt).toMatchObject({ type: 'user', uuid: r.result.user_message_uuid, message: { role: 'user', content: header } })
    expect(prompt!.isMeta).toBeUndefined()
    expect(body).toMatchObject({ type: 'user', isMeta: true, parentUuid: prompt!.uuid, message: { content: [{ type: 'text', text: 'Say hello to world "foo bar".' }] } })
    expect((await listSessions({ cwd: dir }))[0]).toMatchObject({ firstPrompt: '/hello world "foo bar"', turns: 1 })
  })

  it('a max_tokens recovery: the nudge is a meta user line', async () => {
    const r = await run([{ reply: 'partial', stop_reason: 'max_tokens' }, { reply: 'rest' }], 'go', cwd)
    const back = expectRoundTrip(r)
    expect(back.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant'])
    expect(readLines(fileOf(cwd, r.sessionId)).filter((l) => l.isMeta)).toHaveLength(1)
  })

  it('a cut stream recovery', async () => {
    const r = await run([{ reply: 'half of it and more', truncateAfter: 4 }, { reply: 'the rest' }], 'go', cwd)
    expectRoundTrip(r)
  })

  it('a malformed tool call is retracted: the retry hangs from the retracted response\'s parent', async () => {
    const r = await run([
      { reply: [{ text: 'trying' }, { tool_use_raw: { name: 'Echo', json: '{"text": ' } }] },
      { reply: [echo('fixed')] },
      { reply: 'ok' },
    ], 'go', cwd)
    expect(r.result.subtype).toBe('success')
    const back = expectRoundTrip(r)
    expect(JSON.stringify(back.messages)).not.toContain('trying')
    const lines = readLines(fileOf(cwd, r.sessionId))
    expect(lines.some((l) => l.message?.content?.[0]?.text === 'trying')).toBe(true)
  })

  it('a refusal retried on the fallback model', async () => {
    const r = await run([{ reply: 'no', stop_reason: 'refusal' }, { reply: 'yes', expect: { model: 'claude-haiku-5-5' } }], 'go', cwd, { fallbackModel: 'claude-haiku-5-5' })
    expect(r.result.result).toBe('yes')
    const back = expectRoundTrip(r)
    // The refused response and the note about it stay in the file, off the chain the history follows.
    expect(readLines(fileOf(cwd, r.sessionId)).some((l) => l.type === 'system' && l.subtype === 'informational')).toBe(true)
    expect(JSON.stringify(back.messages)).not.toContain('"no"')
  })

  it('context a mod adds beside tool results joins their user message', async () => {
    const ctx = defineMod({ name: 'ctx', register: (on) => on('tool.call', async ($, e, next) => ({ ...(await next(e)), context: [`about ${e.tool}`] }) as never) })
    const r = await run([{ reply: [echo('x')] }, { reply: 'done' }], 'go', cwd, {}, [ctx])
    const back = expectRoundTrip(r)
    expect((back.messages[2]!.content as { type: string }[]).map((b) => b.type)).toEqual(['tool_result', 'text'])
  })

  it('an API error ends the turn: the prompt and an error result', async () => {
    const r = await run([{ error: { status: 400, message: 'bad request' } }], 'go', cwd)
    expect(r.result.is_error).toBe(true)
    expectRoundTrip(r)
    expect(readLines(fileOf(cwd, r.sessionId)).at(-1)).toMatchObject({ subtype: 'turn_result', level: 'error', result: { terminal_reason: 'api_error' } })
  })

  it('an interrupt while tools run: every tool_use answered in the transcript too', async () => {
    const controller = new AbortController()
    const aborter = defineMod({ name: 'aborter', register: (on) => on('tool.call', (_$, e, next) => { setTimeout(() => controller.abort(), 30); return next(e) }) })
    const r = await run([{ reply: [{ tool_use: { name: 'Wait', input: { ms: 2000, label: 'w' } } }] }], 'go', cwd, { abortController: controller }, [aborter])
    expect(r.result.terminal_reason).toBe('aborted_tools')
    const back = expectRoundTrip(r)
    assertAnswered(back.messages)
  })

  it('subagents write their own sidechain files; the main file holds none of their lines', async () => {
    const r = await run([
      { reply: [{ tool_use: { name: 'Agent', input: { description: 'sub', prompt: 'do the sub task' } } }] },
      { reply: [echo('inside')] },
      { reply: 'sub report' },
      { reply: 'main done' },
    ], 'go', cwd, {}, [agentMod])
    expect(r.result.result).toBe('main done')
    expectRoundTrip(r)
    const main = readLines(fileOf(cwd, r.sessionId))
    expect(main.every((l) => l.isSidechain === false && !l.agentId)).toBe(true)
    const dir = join(fileOf(cwd, r.sessionId).replace(/\.jsonl$/, ''), 'subagents')
    const files = readdirSync(dir)
    expect(files).toHaveLength(1)
    expect(files[0]).toMatch(/^agent-.+\.jsonl$/)
    const sub = readLines(join(dir, files[0]!))
    const agentId = files[0]!.slice('agent-'.length, -'.jsonl'.length)
    expect(sub.every((l) => l.isSidechain === true && l.agentId === agentId && l.sessionId === r.sessionId)).toBe(true)
    expect(sub.map((l) => l.type)).toEqual(['user', 'assistant', 'user', 'assistant', 'system'])
    expect(sub[0]!.message.content[0].text).toBe('do the sub task')
    sub.slice(1).forEach((l, i) => expect(l.parentUuid).toBe(sub[i]!.uuid))
    // The subagent's own history rebuilds from its file as the main one does.
    const back = rebuilt(join(dir, files[0]!), undefined, { sidechain: true })
    expect(back.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant'])
  })

  it('streaming input: several prompts, an interrupting prompt, a prompt joining a tool round', async () => {
    const server = await startFakeAnthropic({ script: [
      { reply: [{ tool_use: { name: 'Wait', input: { ms: 150, label: 'a' } } }] },
      { reply: 'first done' },
      { reply: [{ tool_use: { name: 'Wait', input: { ms: 2000, label: 'b' } } }] },
      { reply: 'urgent handled' },
    ] })
    const spy = historySpy()
    const items: SDKUserMessage[] = []
    let wake: (() => void) | undefined
    let closed = false
    const send = (text: string, priority?: 'now' | 'next') => { items.push({ type: 'user', message: { role: 'user', content: text }, parent_tool_use_id: null, ...(priority ? { priority } : {}) }); wake?.() }
    async function* input(): AsyncGenerator<SDKUserMessage> {
      for (;;) {
        while (items.length) yield items.shift()!
        if (closed) return
        await new Promise<void>((r) => { wake = r })
      }
    }
    let calls = 0
    const driver = defineMod({ name: 'driver', register: (on) => on('tool.call', (_$, e, next) => {
      calls++
      if (calls === 1) send('joining', 'next')
      if (calls === 2) setTimeout(() => send('urgent', 'now'), 40)
      return next(e)
    }) })
    const seen: SDKMessage[] = []
    send('start')
    try {
      for await (const m of query({ prompt: input(), options: { bare: true, cwd, mods: [toolsMod(), transcripts, spy.mod, driver], env: { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 't' } } })) {
        seen.push(m)
        if (m.type === 'result' && seen.filter((s) => s.type === 'result').length === 1) send('second')
        if (m.type === 'result' && seen.filter((s) => s.type === 'result').length === 3) { closed = true; wake?.() }
      }
    } finally {
      await server.close()
    }
    const results = seen.filter((m) => m.type === 'result') as { terminal_reason: string; session_id: string }[]
    expect(results.map((x) => x.terminal_reason)).toEqual(['completed', 'aborted_tools', 'completed'])
    const back = expectRoundTrip({ sessionId: results[0]!.session_id, history: spy.history() })
    // The aborted turn's tool results and the urgent prompt are separate user messages, as in the loop.
    expect(back.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user', 'assistant', 'user', 'user', 'assistant'])
    expect(existsSync(fileOf(cwd, results[0]!.session_id).replace(/\.jsonl$/, '.lock'))).toBe(false)
  })
})
