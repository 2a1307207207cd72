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
      expect(await results(server.url, input())).toMatchObject([{ subtype: 'success', result: 'a pixel' }])
      const content = messagesOf(server.requests[0]!)[0]!.content
      expect(content[0]).toEqual(image)
      expect(content.filter((b) => b.type === 'text' && b.text!.trim() === '')).toEqual([])
    } finally {
      await server.close()
    }
  })

  it('leaves out a tool_result block, which answers no call: the API would refuse this request and every later one', async () => {
    const server = await startFakeAnthropic({ script: [{ reply: 'seen' }, { reply: 'next' }] })
    async function* input(): AsyncGenerator<SDKUserMessage> {
      yield { type: 'user', message: { role: 'user', content: [{ type: 'text', text: 'see' }, { type: 'tool_result', tool_use_id: 'toolu_stray', content: 'x' }] }, parent_tool_use_id: null }
      yield { type: 'user', message: { role: 'user', content: 'and then' }, parent_tool_use_id: null }
    }
    try {
      expect(await results(server.url, input())).toMatchObject([{ result: 'seen' }, { result: 'next' }])
      const sent = server.requests.flatMap((r) => messagesOf(r).flatMap((m) => m.content))
      expect(sent.filter((b) => b.type === 'tool_result')).toEqual([])
      expect(messagesOf(server.requests[1]!)[0]!.content[0]).toMatchObject({ type: 'text', text: 'see' })
    } finally {
      await server.close()
    }
  })
})

type Sent = { messages: { content: { type: string; text?: string }[] }[] }
const messagesOf = (r: { body: unknown }) => (r.body as Sent).messages

async function results(url: string, prompt: AsyncIterable<SDKUserMessage>) {
  const out = []
  for await (const m of query({ prompt, options: { bare: true, env: { ANTHROPIC_BASE_URL: url, ANTHROPIC_API_KEY: 't' } } })) if (m.type === 'result') out.push(m)
  return out
}
