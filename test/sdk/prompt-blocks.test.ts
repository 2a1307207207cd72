import { describe, expect, it } from 'vitest'
import type { SDKUserMessage } from '../../core/loop/messages.js'
import { query } from '../../entry.js'
import { startFakeAnthropic } from '../helpers/fake-anthropic.js'

// A 1×1 PNG.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='

describe('a streamed prompt made of blocks', () => {
  it('of an image alone reaches the model without an empty text block (the API refuses one)', async () => {
    const server = await startFakeAnthropic({ script: [{ reply: 'a pixel' }] })
    const image = { type: 'image' as const, source: { type: 'base64' as const, media_type: 'image/png' as const, data: PNG } }
    async function* input(): AsyncGenerator<SDKUserMessage> {
      yield { type: 'user', message: { role: 'user', content: [image] }, parent_tool_use_id: null }
    }
    try {
      const results = []
      for await (const m of query({ prompt: input(), options: { bare: true, env: { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 't' } } })) if (m.type === 'result') results.push(m)
      expect(results).toMatchObject([{ subtype: 'success', result: 'a pixel' }])
      const content = (server.requests[0]!.body as { messages: { content: { type: string; text?: string }[] }[] }).messages[0]!.content
      expect(content[0]).toEqual(image)
      expect(content.filter((b) => b.type === 'text' && b.text!.trim() === '')).toEqual([])
    } finally {
      await server.close()
    }
  })
})
