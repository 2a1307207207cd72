import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { boundaries, firstUserText, isSummaryRequest, mainRequests } from '../compaction/helpers.js'
import { longProject, ROUNDS, type LongProject } from '../compaction/long-session.js'
import { example } from './paths.js'

const EVERY = 10

let p: LongProject
beforeAll(async () => {
  p = await longProject({ extends: 'modloop', mods: [{ name: 'compaction', enabled: false }, [example('mods/count-compaction'), { everyMessages: EVERY }]] })
})
afterAll(() => p.remove())

describe('example: count-compaction in place of the built-in compaction mod', () => {
  it(`compacts every ${EVERY} messages over a ${ROUNDS}-round session of 20 KB results, and the session succeeds`, async () => {
    // Where the summary requests fall: a compaction leaves the summary and the latest exchange (3 messages).
    const script: unknown[] = []
    let length = 1
    let summaries = 0
    for (let i = 1; i <= ROUNDS + 1; i++) {
      if (length >= EVERY) {
        script.push({ reply: `SUMMARY-${++summaries}` })
        length = 3
      }
      script.push(i <= ROUNDS ? p.round(i) : { reply: 'done' })
      length += 2
    }
    expect(summaries).toBe(3)

    const r = await p.run(script)
    expect(r.code, r.err).toBe(0)
    expect(r.messages.at(-1)).toMatchObject({ type: 'result', subtype: 'success', result: 'done' })
    const b = boundaries(r.messages)
    expect(b).toHaveLength(3)
    for (const m of b) expect(m.compact_metadata.trigger).toBe('auto')

    const main = mainRequests(r.requests)
    expect(main).toHaveLength(ROUNDS + 1)
    for (const q of main) expect((q.body.messages as unknown[]).length).toBeLessThanOrEqual(EVERY + 1)
    // After the first compaction: the summary, then the exchange it kept (the Read of f5) word for word.
    const after = main[5]!
    expect(firstUserText(after)).toContain('SUMMARY-1')
    expect(JSON.stringify(after.body.messages)).toContain('<f5>')
    expect(JSON.stringify(after.body.messages)).not.toContain('<f4>')
    // The summarizer read what it replaced.
    const summaryRequests = r.requests.filter(isSummaryRequest)
    expect(summaryRequests).toHaveLength(3)
    expect(JSON.stringify(summaryRequests[0]!.body.messages)).toContain('<f1>')
    expect(JSON.stringify(summaryRequests[1]!.body.messages)).toContain('SUMMARY-1')
  })
})
