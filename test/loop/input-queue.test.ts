import { describe, expect, it, vi } from 'vitest'
import { InputQueue, QUEUED } from '../../core/loop/input-queue.js'
import { defineMod } from '../../core/mod/define.js'
import type { SDKMessage } from '../../core/loop/messages.js'
import { query } from '../../entry.js'
import { startFakeAnthropic } from '../helpers/fake-anthropic.js'
import { channel } from '../helpers/channel.js'
import { toolsMod } from './helpers.js'

async function session(script: unknown, drive: (ch: ReturnType<typeof channel>, seen: SDKMessage[]) => void, turns = 2) {
  const server = await startFakeAnthropic({ script })
  const ch = channel()
  const seen: SDKMessage[] = []
  // The driver reacts to what the session does, e.g. sends input once a tool has started.
  const watcher = defineMod({ name: 'watcher', register: (on) => on('tool.call', (_$, e, next) => { seen.push({ type: 'system', subtype: 'tool_started', session_id: '', uuid: '' }); drive(ch, seen); return next(e) }) })
  try {
    ch.send('start')
    for await (const m of query({ prompt: ch.input, options: { bare: true, mods: [toolsMod(), watcher], env: { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 't' } } })) {
      seen.push(m)
      if (m.type === 'result') {
        const results = seen.filter((s) => s.type === 'result').length
        if (results >= turns) ch.close()
      }
    }
  } finally {
    await server.close()
  }
  return { seen, requests: server.requests }
}

const slow = { reply: [{ tool_use: { name: 'Wait', input: { ms: 150, label: 'w' } } }] }

describe('input that arrives while a turn runs', () => {
  it('`next` joins the running turn at its next tool round: one result covers both', async () => {
    const { seen, requests } = await session([slow, { reply: 'done with both' }], (ch, s) => { if (s.filter((x: any) => x.subtype === 'tool_started').length === 1) { ch.send('also this', { priority: 'next' }); setTimeout(() => ch.close(), 50) } })
    const second = (requests[1]!.body as any).messages.at(-1).content
    expect(second.map((b: any) => b.type)).toEqual(['tool_result', 'text'])
    // Framed as the person's words, not bare text that reads as more tool output.
    expect(second[1].text).toMatch(/^The user sent this message while you were working:\nalso this\n\n\S/)
    expect(seen.filter((m) => m.type === 'result')).toHaveLength(1)
  })

  it('`later` waits for the turn to end and runs as its own turn', async () => {
    const { seen, requests } = await session([slow, { reply: 'first' }, { reply: 'second' }], (ch) => ch.send('afterwards', { priority: 'later' }))
    expect((requests[2]!.body as any).messages.at(-1).content[0].text).toBe('afterwards')
    expect(seen.filter((m) => m.type === 'result').map((r: any) => r.result)).toEqual(['first', 'second'])
  })

  it('`now` interrupts the running turn, then runs', async () => {
    const { seen, requests } = await session([slow, { reply: 'urgent handled' }], (ch) => setTimeout(() => ch.send('urgent', { priority: 'now' }), 60))
    const results = seen.filter((m) => m.type === 'result') as any[]
    expect(results.map((r) => r.terminal_reason)).toEqual(['aborted_tools', 'completed'])
    expect(results[1].result).toBe('urgent handled')
    expect((requests[1]!.body as any).messages.at(-1).content[0].text).toBe('urgent')
  })
})

const userMessage = (text: string, priority: 'now' | 'next' | 'later') => ({ type: 'user' as const, message: { role: 'user' as const, content: text }, parent_tool_use_id: null, priority })
const textOf = (m: { message: { content: unknown } } | symbol | undefined) => (typeof m === 'object' ? m.message.content : m)

describe('the input queue under mixed priorities', () => {
  it('takeJoining takes the `next` messages in arrival order and leaves the `later` ones, which take hands out FIFO', async () => {
    const q = new InputQueue(() => {})
    for (const [text, p] of [['A', 'later'], ['B', 'next'], ['C', 'later'], ['D', 'next']] as const) q.push(userMessage(text, p))
    expect(q.takeJoining().map(textOf)).toEqual(['B', 'D'])
    expect(q.takeJoining()).toEqual([])
    q.end()
    expect([textOf(await q.take()), textOf(await q.take()), await q.take()]).toEqual(['A', 'C', undefined])
  })

  it('takeJoining leaves a `next` slash command queued, to run as a turn of its own; a path is a prompt', async () => {
    const q = new InputQueue(() => {})
    for (const [text, p] of [['B', 'next'], ['/review src/a.ts', 'next'], ['/usr/bin/x fails', 'next'], ['D', 'next']] as const) q.push(userMessage(text, p))
    expect(q.takeJoining().map(textOf)).toEqual(['B', '/usr/bin/x fails', 'D'])
    q.end()
    expect([textOf(await q.take()), await q.take()]).toEqual(['/review src/a.ts', undefined])
  })

  it('take hands out `now` first, then `next`, then `later`, each FIFO; only `now` interrupts', async () => {
    const onNow = vi.fn()
    const q = new InputQueue(onNow)
    for (const [text, p] of [['L1', 'later'], ['X1', 'next'], ['N1', 'now'], ['L2', 'later'], ['X2', 'next'], ['N2', 'now']] as const) q.push(userMessage(text, p))
    expect(onNow).toHaveBeenCalledTimes(2)
    q.end()
    const order: unknown[] = []
    for (let m = await q.take(); m; m = await q.take()) order.push(textOf(m))
    expect(order).toEqual(['N1', 'N2', 'X1', 'X2', 'L1', 'L2'])
  })

  it('a take waiting for input wakes for the first message pushed', async () => {
    const q = new InputQueue(() => {})
    const taken = q.take()
    q.push(userMessage('late', 'later'))
    expect(textOf(await taken)).toBe('late')
  })

  it('a waiting take ends with QUEUED once a poke finds prompts of mods waiting; a message sent comes first', async () => {
    let waiting = 0
    const q = new InputQueue(() => {})
    q.serveQueued(() => waiting > 0)
    const taken = q.take()
    waiting = 1
    q.poke()
    expect(await taken).toBe(QUEUED)
    q.push(userMessage('typed', 'later'))
    expect(textOf(await q.take())).toBe('typed')
  })
})

describe('mixed priorities sent while a tool runs, through query() streaming input', () => {
  const sendAll = (ch: ReturnType<typeof channel>, seen: SDKMessage[], list: [string, 'now' | 'next' | 'later'][]) => {
    if (seen.filter((x: any) => x.subtype === 'tool_started').length !== 1) return
    for (const [text, priority] of list) ch.send(text, { priority })
  }
  const lastUser = (r: { body: unknown } | undefined) => (r!.body as any).messages.at(-1).content

  it('later A, next B, later C, next D: B and D join the tool round in order, then A and C run as turns of their own', async () => {
    const { seen, requests } = await session(
      [slow, { reply: 'joined' }, { reply: 'A done' }, { reply: 'C done' }],
      (ch, s) => sendAll(ch, s, [['A', 'later'], ['B', 'next'], ['C', 'later'], ['D', 'next']]),
      3,
    )
    const joined = lastUser(requests[1])
    expect(joined.map((b: any) => b.type)).toEqual(['tool_result', 'text', 'text'])
    expect(joined.slice(1).map((b: any) => b.text.split('\n')[1])).toEqual(['B', 'D'])
    expect(lastUser(requests[2])[0].text).toBe('A')
    expect(lastUser(requests[3])[0].text).toBe('C')
    expect(requests).toHaveLength(4)
    expect(seen.filter((m) => m.type === 'result').map((r: any) => r.result)).toEqual(['joined', 'A done', 'C done'])
  })

  it('later A, next B, now N: N interrupts the turn before B can join, then B runs, then A', async () => {
    const { seen, requests } = await session(
      [slow, { reply: 'N done' }, { reply: 'B done' }, { reply: 'A done' }],
      (ch, s) => sendAll(ch, s, [['A', 'later'], ['B', 'next'], ['N', 'now']]),
      4,
    )
    const results = seen.filter((m) => m.type === 'result') as any[]
    // Sent as the tool starts, the interrupt may land while the response still streams.
    expect(results.map((r) => r.terminal_reason)).toEqual([expect.stringMatching(/^aborted_(tools|streaming)$/), 'completed', 'completed', 'completed'])
    expect(results.slice(1).map((r) => r.result)).toEqual(['N done', 'B done', 'A done'])
    // The interrupted round took no one in: B is a prompt of its own, not a line beside the cut-off tool.
    expect(JSON.stringify(requests[1]!.body)).not.toContain('"B"')
    expect(requests.slice(1).map((r) => lastUser(r).at(-1).text)).toEqual(['N', 'B', 'A'])
  })
})
