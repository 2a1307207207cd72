import { describe, expect, it } from 'vitest'
import type { SDKMessage, SDKResultMessage } from '../../core/loop/messages.js'
import { query } from '../../entry.js'
import { startFakeAnthropic } from '../helpers/fake-anthropic.js'
import { channel } from '../helpers/channel.js'

describe('a streamed session’s results', () => {
  it('duration_api_ms and total_cost_usd are the session’s so far, not the turn’s', async () => {
    // The server holds each reply back, so each turn spends at least that long waiting on the API.
    const server = await startFakeAnthropic({ script: [{ reply: 'one', delayMs: 50 }, { reply: 'two', delayMs: 50 }] })
    const f = channel()
    const seen: SDKMessage[] = []
    try {
      f.send('first')
      f.send('second')
      f.close()
      for await (const m of query({ prompt: f.input, options: { bare: true, env: { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 't' } } })) seen.push(m)
    } finally {
      await server.close()
    }
    const [first, second] = seen.filter((m): m is SDKResultMessage => m.type === 'result')
    expect(second!.duration_api_ms).toBeGreaterThanOrEqual(first!.duration_api_ms + 50)
    expect(second!.total_cost_usd).toBeGreaterThan(first!.total_cost_usd)
  })
})
