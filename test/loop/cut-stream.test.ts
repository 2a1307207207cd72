import { describe, expect, it } from 'vitest'
import { runScript } from './helpers.js'

const long = 'a reply long enough to be streamed in several text deltas, so the cut lands inside its block'
const retriesOf = (messages: readonly { type: string; subtype?: string }[]) => messages.filter((m) => m.type === 'system' && m.subtype === 'api_retry') as any[]

describe('a stream cut inside the first content block (spec §3.7)', () => {
  it('is retried with an api_retry message, and the retry\'s answer stands', async () => {
    const run = await runScript([{ reply: long, truncateAfter: 3 }, { reply: 'the whole answer' }], 'go', { includePartialMessages: true })
    expect(run.result).toMatchObject({ subtype: 'success', is_error: false, result: 'the whole answer', terminal_reason: 'completed' })
    expect(run.requests).toHaveLength(2)
    const retries = retriesOf(run.messages)
    expect(retries).toHaveLength(1)
    expect(retries[0]).toMatchObject({ attempt: 1, error_status: null, error: 'unknown', error_message: expect.stringContaining('cut off before message_stop') })
    // The cut attempt's partial events were shown; only the retry's block became a message.
    const starts = run.messages.filter((m) => m.type === 'stream_event' && m.event.type === 'message_start')
    expect(starts).toHaveLength(2)
    const assistants = run.messages.filter((m) => m.type === 'assistant') as any[]
    expect(assistants.map((a) => a.message.content[0].text)).toEqual(['the whole answer'])
    expect(run.messages.indexOf(retries[0])).toBeLessThan(run.messages.indexOf(starts[1]!))
  })

  it('ends as api_error naming the cut once the retry budget is spent', async () => {
    const run = await runScript([{ reply: long, truncateAfter: 3 }, { reply: long, truncateAfter: 2 }, { reply: 'unused' }], 'go', { env: { MODLOOP_MAX_RETRIES: '1' } })
    expect(run.result).toMatchObject({ subtype: 'success', is_error: true, terminal_reason: 'api_error' })
    expect(run.result.result).toMatch(/^API Error: the response stream was cut off before message_stop .*\(gave up after 1 retries\)$/)
    expect(retriesOf(run.messages)).toHaveLength(1)
    expect(run.requests).toHaveLength(2)
  })
})
