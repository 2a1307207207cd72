import { describe, expect, it } from 'vitest'
import type { SDKMessage } from '../../core/loop/messages.js'
import type { ForkRequest, ForkResult } from '../../core/mod/contracts.js'
import { ManualClock } from '../../testing/manual-clock.js'
import { COLD_CACHE_MS, MAX_DELAY_MS, ProgressSummaries, SUMMARY_EVERY_MS, summaryOf } from '../../mods/agent/progress-summary.js'

const usage = { input_tokens: 1, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 }
const answer = (text: string): ForkResult => ({ isAnswered: true, text, usage, content: [{ type: 'text', text, citations: null }] })
const assistant = { type: 'assistant' } as SDKMessage
const toolResults = { type: 'user' } as SDKMessage

/** A subagent's summaries on a hand-moved clock, its fork answered by the test: what was asked and what was posted, in order. */
function harness() {
  const clock = new ManualClock(1_000_000)
  const asked: { req: ForkRequest; at: number; signal?: AbortSignal; reply: (r: ForkResult) => void }[] = []
  const posted: string[] = []
  const fork = (req: ForkRequest, o?: { signal?: AbortSignal }) => new Promise<ForkResult>((resolve) => asked.push({ req, at: clock.now(), signal: o?.signal, reply: resolve }))
  const s = new ProgressSummaries(clock, fork, async (summary) => { posted.push(summary) }, () => {})
  // Lets a reply's continuation (the post) run.
  const settle = () => new Promise((r) => setImmediate(r))
  return { clock, asked, posted, s, settle }
}

describe('progress summaries of a running subagent', () => {
  it('are asked every 30 s while the conversation moves on, and none while it is unchanged', async () => {
    const h = harness()
    h.s.seen(assistant)
    expect(h.clock.nextAt).toBe(1_000_000 + SUMMARY_EVERY_MS)
    h.clock.runNext()
    expect(h.asked).toHaveLength(1)
    expect(h.asked[0]!.req.prompt).toContain('[Progress summary]')
    h.asked[0]!.reply(answer('"Reading src/notes.ts."\nmore'))
    await h.settle()
    expect(h.posted).toEqual(['Reading src/notes.ts'])
    // Nothing new: the next two ticks ask nothing.
    h.clock.runNext()
    h.clock.runNext()
    expect(h.asked).toHaveLength(1)
    h.s.seen(toolResults)
    h.s.seen(assistant)
    h.clock.runNext()
    expect(h.asked).toHaveLength(2)
    expect(h.asked[1]!.at).toBe(1_000_000 + 4 * SUMMARY_EVERY_MS)
    h.s.end()
    expect(h.clock.nextAt).toBeUndefined()
  })

  it('wait, up to 5 minutes, while the subagent waits on a response with a likely cold cache', async () => {
    const h = harness()
    // Its first request is out: no response yet, so each tick passes until 5 minutes from the start.
    h.s.seen(toolResults)
    const ticks = MAX_DELAY_MS / SUMMARY_EVERY_MS
    for (let i = 1; i < ticks; i++) h.clock.runNext()
    expect(h.asked).toHaveLength(0)
    h.clock.runNext()
    expect(h.asked.map((a) => a.at)).toEqual([1_000_000 + MAX_DELAY_MS])
    h.asked[0]!.reply(answer('Running the tests'))
    await h.settle()
    // A response came, then a new request: the cache is warm until 4.5 minutes after that response.
    h.s.seen(assistant)
    h.s.seen(toolResults)
    h.clock.runNext()
    expect(h.asked).toHaveLength(2)
    h.asked[1]!.reply(answer('Editing the parser'))
    await h.settle()
    const summarizedAt = h.clock.now()
    h.s.seen(assistant)
    h.s.seen(toolResults)
    // 4.5 minutes after that response, still waiting on the next: the tick passes...
    h.clock.set(summarizedAt + COLD_CACHE_MS)
    h.clock.runNext()
    expect(h.asked).toHaveLength(2)
    // ...until 5 minutes after the last summary.
    h.clock.set(summarizedAt + MAX_DELAY_MS)
    h.clock.runNext()
    expect(h.asked).toHaveLength(3)
    expect(h.asked[2]!.at).toBe(summarizedAt + MAX_DELAY_MS)
    h.s.end()
  })

  it('one still being made when the subagent ends is dropped, and its request called off', async () => {
    const h = harness()
    h.s.seen(assistant)
    h.clock.runNext()
    expect(h.asked).toHaveLength(1)
    // Another tick while it is made asks nothing more.
    h.s.seen(toolResults)
    h.clock.runNext()
    expect(h.asked).toHaveLength(1)
    h.s.end()
    expect(h.asked[0]!.signal?.aborted).toBe(true)
    h.asked[0]!.reply(answer('Too late'))
    await h.settle()
    expect(h.posted).toEqual([])
  })

  it('keep a reply to its first line, without quotes or a closing period; an empty one is no summary', () => {
    expect(summaryOf('\n  `Fixing validate.ts`  \n')).toBe('Fixing validate.ts')
    expect(summaryOf('  \n ')).toBeUndefined()
    expect(summaryOf('""')).toBeUndefined()
    expect(summaryOf('x'.repeat(200))).toHaveLength(120)
  })
})
