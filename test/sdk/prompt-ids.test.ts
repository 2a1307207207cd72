import { describe, expect, it } from 'vitest'
import type { SDKMessage, SDKResultMessage, SDKUserMessage } from '../../core/loop/messages.js'
import { query } from '../../entry.js'
import { defineMod } from '../../core/mod/define.js'
import transcripts from '../../mods/transcripts/index.js'
import { startFakeAnthropic } from '../helpers/fake-anthropic.js'
import { channel } from '../helpers/channel.js'
import { runCli } from '../helpers/cli.js'
import { runScript, toolsMod } from '../loop/helpers.js'
import { fileOf, readLines, tempCwd } from '../sessions/helpers.js'

const replay = { 'replay-user-messages': null }

describe("the prompt's user message id", () => {
  it('replay-user-messages yields the prompt back after init, with the uuid the result and the transcript carry', async () => {
    const cwd = await tempCwd('modloop-prompt-ids-')
    const run = await runScript([{ reply: 'hi there' }], 'hello', { cwd, mods: [transcripts], extraArgs: replay })
    expect(run.messages.map((m) => (m.type === 'system' ? `system/${(m as { subtype: string }).subtype}` : m.type))).toEqual(['system/init', 'user', 'assistant', 'result'])
    const echo = run.messages[1] as SDKUserMessage
    expect(run.messages[0]).toMatchObject({ capabilities: expect.arrayContaining(['interrupt_receipt_v1', 'interrupt_cancel_queued_v1']) })
    expect(echo).toMatchObject({ isReplay: true, message: { role: 'user', content: 'hello' }, parent_tool_use_id: null, session_id: run.result.session_id })
    expect(run.result.user_message_uuid).toBe(echo.uuid)
    // Recorded once, under that uuid.
    const users = readLines(fileOf(cwd, run.result.session_id)).filter((l) => l.type === 'user')
    expect(users).toHaveLength(1)
    expect(users[0]!.uuid).toBe(echo.uuid)
  })

  it('modloop -p --replay-user-messages prints the replayed prompt in stream-json', async () => {
    const cwd = await tempCwd('modloop-prompt-ids-')
    const run = await runCli(['-p', 'hello', '--output-format', 'stream-json', '--verbose', '--replay-user-messages'], { script: [{ reply: 'hi there' }], cwd })
    expect(run.code, run.err).toBe(0)
    const lines = run.out.trim().split('\n').map((l) => JSON.parse(l))
    const echo = lines.find((l) => l.type === 'user' && l.isReplay)
    expect(echo.message.content).toBe('hello')
    expect(lines.at(-1)).toMatchObject({ type: 'result', user_message_uuid: echo.uuid })
  })

  it('the echo of a streamed message is what the caller sent: a string stays a string, blocks stay apart, no added context', async () => {
    const cwd = await tempCwd('modloop-prompt-ids-')
    const blocks = [{ type: 'text', text: 'part one' }, { type: 'text', text: 'part two' }]
    const stdin = [
      { type: 'user', message: { role: 'user', content: 'hello' } },
      { type: 'user', message: { role: 'user', content: blocks } },
    ].map((m) => `${JSON.stringify(m)}\n`).join('')
    const args = ['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose', '--replay-user-messages']
    const run = await runCli(args, { script: [{ reply: 'one' }, { reply: 'two' }], cwd, stdin })
    expect(run.code, run.err).toBe(0)
    const echoes = run.out.trim().split('\n').map((l) => JSON.parse(l)).filter((l) => l.type === 'user' && l.isReplay)
    expect(echoes.map((e) => e.message)).toEqual([{ role: 'user', content: 'hello' }, { role: 'user', content: blocks }])
  })

  it("keeps the caller's own uuid for a streamed message; without replays only the result carries it", async () => {
    const server = await startFakeAnthropic({ script: [{ reply: 'one' }, { reply: 'two' }] })
    const f = channel()
    const seen: SDKMessage[] = []
    try {
      f.send('first', { uuid: '11111111-1111-4111-8111-111111111111' })
      f.send('second')
      f.close()
      for await (const m of query({ prompt: f.input, options: { bare: true, env: { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 't' } } })) seen.push(m)
    } finally {
      await server.close()
    }
    expect(seen.some((m) => m.type === 'user')).toBe(false)
    const results = seen.filter((m): m is SDKResultMessage => m.type === 'result')
    expect(results[0]!.user_message_uuid).toBe('11111111-1111-4111-8111-111111111111')
    expect(results[1]!.user_message_uuid).toMatch(/^[0-9a-f-]{36}$/)
  })
})

describe('interrupt() receipt', () => {
  /** A session whose first turn waits in a tool; `onWait` runs once the tool started. */
  async function interrupted(onWait: (q: ReturnType<typeof query>, f: ReturnType<typeof channel>) => Promise<unknown>) {
    const server = await startFakeAnthropic({ script: [{ reply: [{ tool_use: { name: 'Wait', input: { ms: 3000, label: 'w' } } }] }, { reply: 'later one' }, { reply: 'later two' }] })
    const f = channel()
    let q: ReturnType<typeof query> | undefined
    let receipt: Promise<unknown> | undefined
    const trigger = defineMod({ name: 'trigger', register: (on) => on('tool.call', { tool: 'Wait' }, (_$, e, next) => {
      receipt ??= new Promise((r) => setTimeout(r, 20)).then(() => onWait(q!, f))
      return next(e)
    }) })
    const seen: SDKMessage[] = []
    try {
      q = query({ prompt: f.input, options: { bare: true, mods: [toolsMod(), trigger], env: { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 't' } } })
      expect(await q.interrupt()).toBeUndefined()
      f.send('wait a while')
      for await (const m of q) seen.push(m)
    } finally {
      await server.close()
    }
    return { receipt: await receipt, results: seen.filter((m): m is SDKResultMessage => m.type === 'result') }
  }

  it('names the user messages still waiting, which then run', async () => {
    const { receipt, results } = await interrupted(async (q, f) => {
      f.send('one', { uuid: 'a1111111-1111-4111-8111-111111111111', priority: 'later' })
      f.send('two', { priority: 'later' })
      await new Promise((r) => setTimeout(r, 20))
      const r = await q.interrupt()
      f.close()
      return r
    })
    expect(receipt).toEqual({ still_queued: ['a1111111-1111-4111-8111-111111111111', expect.stringMatching(/^[0-9a-f-]{36}$/)] })
    expect(results.map((r) => r.terminal_reason)).toEqual(['aborted_tools', 'completed', 'completed'])
    expect(results[1]!.user_message_uuid).toBe('a1111111-1111-4111-8111-111111111111')
    expect(results[2]!.user_message_uuid).toBe((receipt as { still_queued: string[] }).still_queued[1])
  })

  it('with cancel_queued drops them and says which', async () => {
    const { receipt, results } = await interrupted(async (q, f) => {
      f.send('one', { uuid: 'b1111111-1111-4111-8111-111111111111', priority: 'later' })
      await new Promise((r) => setTimeout(r, 20))
      const r = await q.interrupt({ cancel_queued: true })
      f.close()
      return r
    })
    expect(receipt).toEqual({ still_queued: [], cancelled: ['b1111111-1111-4111-8111-111111111111'] })
    expect(results).toHaveLength(1)
    expect(results.map((r) => r.terminal_reason)).toEqual(['aborted_tools'])
  })
})
