import { afterEach, describe, expect, it, vi } from 'vitest'
import { STAGE } from '../../core/bus/types.js'
import type { SessionCompactInput, SessionCompactResult } from '../../core/events/types.js'
import { defineMod } from '../../core/mod/define.js'
import { assertNoDanglingToolUse, runScript } from '../loop/helpers.js'
import { big, bigTool, boundaries, compactionWith, firstUserText, isSummaryRequest, mainRequests, requestTokens, summary } from './helpers.js'

const THRESHOLD = 5_000
const opts = { thresholdTokens: THRESHOLD, keepRecentFraction: 0, microcompact: false }

/** Sees every session.compact from the outside: what was asked and what came back. */
function observer(log: { trigger: string; tokens?: number; instructions?: string; outcome: string }[]) {
  return defineMod({
    name: 'observer',
    register(on) {
      on('session.compact', async (_$, e: SessionCompactInput, next) => {
        const r: SessionCompactResult = await next(e)
        log.push({ trigger: e.trigger, tokens: e.tokens, instructions: e.instructions, outcome: 'skip' in r ? `skip: ${r.skip}` : `messages: ${r.messages.length}` })
        return r
      }, { stage: STAGE.guard })
    },
  })
}

afterEach(() => { vi.unstubAllEnvs() })

describe('auto compaction', () => {
  it('compacts each time a long session crosses the threshold; requests stay under the window and carry the summary on', async () => {
    const script = [
      big('r1'), big('r2'), big('r3'), summary('SUMMARY-ONE'),
      big('r4'), big('r5'), big('r6'), summary('SUMMARY-TWO'),
      big('r7'), big('r8'), big('r9'), summary('SUMMARY-THREE'),
      { reply: 'done' },
    ]
    const seen: Parameters<typeof observer>[0] = []
    const run = await runScript(script, 'go', { mods: [bigTool, observer(seen), compactionWith(opts)] })
    expect(run.result.result).toBe('done')
    expect(run.result.num_turns).toBe(10)

    const main = mainRequests(run.requests)
    expect(main).toHaveLength(10)
    // The threshold plus at most one round's growth: nothing near a real window is ever sent.
    for (const r of main) expect(requestTokens(r)).toBeLessThan(THRESHOLD + 2_500)
    assertNoDanglingToolUse(main)

    const b = boundaries(run.messages)
    expect(b).toHaveLength(3)
    for (const m of b) {
      expect(m.compact_metadata.trigger).toBe('auto')
      expect(m.compact_metadata.pre_tokens).toBeGreaterThanOrEqual(THRESHOLD)
      expect(m.compact_metadata.post_tokens).toBeLessThan(1_000)
      expect(m.compact_metadata.duration_ms).toBeGreaterThanOrEqual(0)
    }
    expect(seen.map((s) => s.trigger)).toEqual(['auto', 'auto', 'auto'])
    expect(seen.every((s) => s.outcome === 'messages: 1' && s.tokens! >= THRESHOLD)).toBe(true)

    // Order in the stream: compacting, boundary, success, then the next response.
    const kinds = run.messages.map((m) => (m.type === 'system' ? `${m.subtype}${m.subtype === 'status' ? `:${String(m.compact_result ?? m.status)}` : ''}` : m.type))
    const at = kinds.indexOf('compact_boundary')
    expect(kinds.slice(at - 1, at + 3)).toEqual(['status:compacting', 'compact_boundary', 'status:success', 'assistant'])

    // After each compaction, the next request opens with that summary and none of what it replaced.
    expect(firstUserText(main[3]!)).toContain('SUMMARY-ONE')
    expect(JSON.stringify(main[3]!.body.messages)).not.toContain('<r1>')
    expect(firstUserText(main[6]!)).toContain('SUMMARY-TWO')
    expect(firstUserText(main[9]!)).toContain('SUMMARY-THREE')
    // The summarizer sees the earlier summary, so what it said is carried forward.
    const summaries = run.requests.filter(isSummaryRequest)
    expect(summaries).toHaveLength(3)
    expect(JSON.stringify(summaries[1]!.body.messages)).toContain('SUMMARY-ONE')
    expect(JSON.stringify(summaries[2]!.body.messages)).toContain('SUMMARY-TWO')
    expect(JSON.stringify(summaries[0]!.body.messages)).toContain('Primary request and intent')
  })

  it('MODLOOP_AUTOCOMPACT_TOKENS sets the threshold as an absolute count', async () => {
    vi.stubEnv('MODLOOP_AUTOCOMPACT_TOKENS', String(THRESHOLD))
    const run = await runScript([big('r1'), big('r2'), big('r3'), summary('SUMMARY-ENV'), { reply: 'done' }], 'go', {
      mods: [bigTool, compactionWith({ keepRecentFraction: 0, microcompact: false })],
    })
    expect(run.result.result).toBe('done')
    expect(boundaries(run.messages)).toHaveLength(1)
    expect(firstUserText(mainRequests(run.requests)[3]!)).toContain('SUMMARY-ENV')
  })

  it('keeps the recent tail word for word, tool calls with their results', async () => {
    const run = await runScript([big('r1'), big('r2'), big('r3'), summary('SUMMARY-TAIL'), { reply: 'done' }], 'go', {
      mods: [bigTool, compactionWith({ ...opts, keepRecentFraction: 0.5 })],
    })
    const after = mainRequests(run.requests)[3]!
    const msgs = after.body.messages
    expect(msgs.map((m: any) => m.role)).toEqual(['user', 'assistant', 'user'])
    expect(firstUserText(after)).toContain('SUMMARY-TAIL')
    expect(JSON.stringify(msgs[2])).toContain('<r3>')
    expect(JSON.stringify(msgs)).not.toContain('<r2>')
    assertNoDanglingToolUse([after])
    // The summarizer reads the conversation as the loop sent it, and is told which part stays word for word.
    const asked = run.requests.find(isSummaryRequest)!.body.messages
    expect(asked.at(-1).content.at(-1).text).toContain(`The last ${msgs.length - 1} messages above stay in the new context word for word`)
  })

  it('three failed compactions in a row turn auto compaction off for the session', async () => {
    const fail = { error: { status: 403, message: 'no summaries today' } }
    const run = await runScript([big('r1'), big('r2'), big('r3'), fail, big('r4'), fail, big('r5'), fail, big('r6'), { reply: 'done' }], 'go', {
      mods: [bigTool, compactionWith(opts)],
    })
    expect(run.result.result).toBe('done')
    expect(run.requests.filter(isSummaryRequest)).toHaveLength(3)
    expect(boundaries(run.messages)).toHaveLength(0)
    const failed = run.messages.filter((m) => m.type === 'system' && m.subtype === 'status' && m.compact_result === 'failed')
    expect(failed).toHaveLength(3)
    expect(String((failed[0] as any).compact_error)).toContain('compaction failed: the summary request failed (403')
    const warning = run.messages.find((m) => m.type === 'system' && m.subtype === 'informational' && String(m.content).includes('Automatic compaction is off'))
    expect(warning).toBeDefined()
  })

  it('ends the turn as rapid_refill_breaker when the context refills right after compacting three times in a row', async () => {
    const huge = (tag: string) => big(tag, 24_000)
    const run = await runScript([huge('r1'), summary('S1'), huge('r2'), summary('S2'), huge('r3'), summary('S3'), huge('r4'), { reply: 'never' }], 'go', {
      mods: [bigTool, compactionWith(opts)],
    })
    expect(run.result.terminal_reason).toBe('rapid_refill_breaker')
    expect(run.result.is_error).toBe(true)
    expect(run.result.result).toContain('Autocompact is thrashing')
    expect(boundaries(run.messages)).toHaveLength(3)
    expect(run.requests.filter(isSummaryRequest)).toHaveLength(3)
    expect(mainRequests(run.requests)).toHaveLength(4)
  })
})
