import { describe, expect, it } from 'vitest'
import { randomUUID } from 'node:crypto'
import { fileOf, readLines, run, tempCwd } from './helpers.js'
import { writeBigSession } from './big-session.js'

describe('a 10,000-message session', () => {
  it('resumes with its whole history in the next request, and its totals', async () => {
    const cwd = await tempCwd()
    const id = randomUUID()
    const history = writeBigSession(fileOf(cwd, id), id, cwd, 2_500)
    expect(history).toHaveLength(10_000)
    // How long the resume takes is bench/sessions.js's figure, not an assertion here.
    const r = await run([{ reply: 'still here' }], 'one more', cwd, { resume: id })
    expect(r.result).toMatchObject({ subtype: 'success', session_id: id })
    const sent = (r.requests[0]!.body as any).messages
    expect(sent).toHaveLength(10_001)
    expect(sent.slice(0, -1)).toEqual(JSON.parse(JSON.stringify(history)))
    expect(r.result.total_cost_usd).toBeGreaterThan(2.5)
    expect(readLines(fileOf(cwd, id))).toHaveLength(2_500 * 6 + 3)
  })
})
