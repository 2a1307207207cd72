import { describe, expect, it } from 'vitest'
import { defineMod } from '../../core/mod/define.js'
import type { SDKMessage } from '../../core/loop/messages.js'
import { query } from '../../core/loop/query.js'
import { startFakeAnthropic } from '../helpers/fake-anthropic.js'
import { channel } from '../helpers/channel.js'
import { toolsMod } from './helpers.js'

async function session(script: unknown, drive: (ch: ReturnType<typeof channel>, seen: SDKMessage[]) => void) {
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
        if (results >= 2) ch.close()
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
    expect(second[1].text).toBe('also this')
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
