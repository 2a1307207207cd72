import { describe, expect, it } from 'vitest'
import { conversation } from '../sdk/conversation.js'

const LONG = `Part one of a long answer ${'that keeps going '.repeat(30)}to its end.`

describe('an answer interrupted while it streams', () => {
  it('keeps what the model had said, then tells it the person interrupted, as Claude Code does', async () => {
    const c = await conversation([{ reply: LONG, chunkDelayMs: 20 }, { reply: 'second answer' }], { includePartialMessages: true })
    try {
      // Interrupt once some text has streamed (polling what the stream yielded, not a clock).
      const watch = setInterval(() => {
        if (c.seen.some((m: any) => m.type === 'stream_event' && m.event.type === 'content_block_delta')) {
          clearInterval(watch)
          void c.q.interrupt()
        }
      }, 5)
      const first = await c.say('go')
      clearInterval(watch)
      expect(first).toMatchObject({ subtype: 'error_during_execution', terminal_reason: 'aborted_streaming' })
      expect(await c.say('again')).toMatchObject({ subtype: 'success', result: 'second answer' })
      const sent = (c.server.requests[1]!.body as any).messages
      expect(sent.map((m: any) => m.role)).toEqual(['user', 'assistant', 'user', 'user'])
      const partial = sent[1].content[0].text as string
      expect(partial.length).toBeGreaterThan(0)
      expect(LONG.startsWith(partial) && partial.length < LONG.length).toBe(true)
      expect(sent[2].content).toEqual([{ type: 'text', text: '[Request interrupted by user]' }])
      // The stream showed both: the partial answer, then the marker.
      const shown = c.seen.filter((m: any) => (m.type === 'assistant' || m.type === 'user') && !m.isReplay).map((m: any) => m.message.content[0].text)
      expect(shown.slice(0, 2)).toEqual([partial, '[Request interrupted by user]'])
    } finally {
      await c.end()
    }
  })
})
