import { describe, expect, it } from 'vitest'
import { defineMod } from '../../core/mod/define.js'
import { runScript } from '../loop/helpers.js'
import { big, bigTool, boundaries, compactionWith, firstUserText, isSummaryRequest, mainRequests, summary } from './helpers.js'

const opts = { thresholdTokens: 5_000, keepRecentFraction: 0, microcompact: false }
const tooLong = { error: { status: 400, message: 'prompt is too long: 210000 tokens > 200000 maximum' } }

const answering = (answer: unknown) => defineMod({
  name: 'my-compactor',
  register(on) {
    on('session.compact', () => answer as never)
  },
})

describe('answers to session.compact', () => {
  it('a mod that answers with its own messages replaces the summary; no summary request is made', async () => {
    const mine = answering({ messages: [{ role: 'user', content: 'CUSTOM SUMMARY' }] })
    const run = await runScript([big('r1'), big('r2'), big('r3'), { reply: 'done' }], 'go', { mods: [bigTool, compactionWith(opts), mine] })
    expect(run.result.result).toBe('done')
    expect(run.requests.filter(isSummaryRequest)).toHaveLength(0)
    expect(boundaries(run.messages)).toHaveLength(1)
    expect(mainRequests(run.requests)[3]!.body.messages).toEqual([{ role: 'user', content: 'CUSTOM SUMMARY' }])
  })

  it('a skip keeps the conversation as it is and says why', async () => {
    const run = await runScript([big('r1'), big('r2'), big('r3'), { reply: 'done' }], 'go', { mods: [bigTool, compactionWith(opts), answering({ skip: 'not now' })] })
    expect(run.result.result).toBe('done')
    expect(boundaries(run.messages)).toHaveLength(0)
    const status = run.messages.find((m) => m.type === 'system' && m.subtype === 'status' && m.compact_result === 'failed')
    expect((status as any)?.compact_error).toBe('not now')
    expect(JSON.stringify(mainRequests(run.requests)[3]!.body.messages)).toContain('<r1>')
  })

  it('an answer that is not a valid conversation is refused with the reason, and the session goes on', async () => {
    const bad = answering({ messages: [{ role: 'assistant', content: 'I start wrong' }] })
    const run = await runScript([big('r1'), big('r2'), big('r3'), { reply: 'done' }], 'go', { mods: [bigTool, compactionWith(opts), bad] })
    expect(run.result.result).toBe('done')
    const status = run.messages.find((m) => m.type === 'system' && m.subtype === 'status' && m.compact_result === 'failed')
    expect((status as any)?.compact_error).toContain('must open with a user message')
  })
})

describe('answers to turn.request', () => {
  const before = (answer: (e: { messages: readonly unknown[]; compacted?: unknown }) => unknown) => defineMod({
    name: 'before-request',
    register(on) {
      on('turn.request', (_$, e, next) => (answer(e) as never) ?? next(e))
    },
  })

  it('a history that is not a valid conversation is not used: the request goes out as it stands, with a warning', async () => {
    const bad = before((e) => (e.messages.length > 1 ? { messages: [{ role: 'assistant', content: 'cut wrong' }] } : undefined))
    const run = await runScript([big('r1'), { reply: 'done' }], 'go', { mods: [bigTool, bad] })
    expect(run.result.result).toBe('done')
    expect(JSON.stringify(run.requests[1]!.body.messages)).toContain('<r1>')
    const warning = run.messages.find((m) => m.type === 'system' && m.subtype === 'informational' && String(m.content).startsWith('turn.request: the history a mod handed back was not used'))
    expect(String((warning as any)?.content)).toContain('must open with a user message')
  })

  it('an end answer ends the turn before the request, with its terminal reason and text', async () => {
    const stop = before((e) => (e.messages.length > 1 ? { end: { terminal: 'blocking_limit', text: 'The context is full.' } } : undefined))
    const run = await runScript([big('r1'), { reply: 'never' }], 'go', { mods: [bigTool, stop] })
    expect(run.result).toMatchObject({ terminal_reason: 'blocking_limit', is_error: true, result: 'The context is full.' })
    expect(run.requests).toHaveLength(1)
  })

  it('after the compaction it asked for, the event comes again with the outcome; a second ask is not honoured', async () => {
    const seen: unknown[] = []
    const mine = answering({ messages: [{ role: 'user', content: 'SHORT' }] })
    const again = before((e) => {
      if (e.messages.length > 1 || e.compacted) seen.push(e.compacted ?? 'asked')
      return e.messages.length > 1 || e.compacted ? { compact: {} } : undefined
    })
    const run = await runScript([big('r1'), { reply: 'done' }], 'go', { mods: [bigTool, again, mine] })
    expect(run.result.result).toBe('done')
    expect(boundaries(run.messages)).toHaveLength(1)
    expect(seen).toEqual(['asked', { tokensBefore: expect.any(Number), tokensAfter: expect.any(Number) }])
    expect(run.requests[1]!.body.messages).toEqual([{ role: 'user', content: 'SHORT' }])
  })
})

describe('prompt too long', () => {
  it('compacts reactively and retries the request', async () => {
    const run = await runScript([big('r1'), tooLong, summary('SUMMARY-REACTIVE'), { reply: 'ok' }], 'go', { mods: [bigTool, compactionWith({ ...opts, thresholdTokens: 100_000 })] })
    expect(run.result.result).toBe('ok')
    expect(run.result.is_error).toBe(false)
    const b = boundaries(run.messages)
    expect(b).toHaveLength(1)
    expect(b[0]!.compact_metadata.trigger).toBe('auto')
    const main = mainRequests(run.requests)
    expect(firstUserText(main.at(-1)!)).toContain('SUMMARY-REACTIVE')
  })

  it('ends with prompt_too_long when the request is still too long after compacting', async () => {
    const run = await runScript([big('r1'), tooLong, summary('S'), tooLong, { reply: 'never' }], 'go', { mods: [bigTool, compactionWith({ ...opts, thresholdTokens: 100_000 })] })
    expect(run.result.terminal_reason).toBe('prompt_too_long')
    expect(run.result.is_error).toBe(true)
    expect(run.result.result).toBe('Prompt is too long')
  })

  it('ends with prompt_too_long, naming why, when the compaction asked for does not happen', async () => {
    const run = await runScript([tooLong, { reply: 'never' }], 'go', { mods: [bigTool, compactionWith(opts), answering({ skip: 'not now' })] })
    expect(run.result.terminal_reason).toBe('prompt_too_long')
    expect(run.result.result).toBe('Prompt is too long - automatic compaction failed: not now')
    expect(run.requests).toHaveLength(1)
  })

  it('without a mod that compacts, ends as the API ended it: nothing is compacted or retried', async () => {
    const run = await runScript([tooLong, { reply: 'never' }], 'go', { mods: [bigTool] })
    expect(run.result.terminal_reason).toBe('prompt_too_long')
    expect(run.result.is_error).toBe(true)
    expect(run.result.result).toBe('Prompt is too long')
    expect(run.requests).toHaveLength(1)
    expect(run.messages.filter((m) => m.type === 'system' && (m.subtype === 'status' || m.subtype === 'compact_boundary'))).toEqual([])
  })
})
