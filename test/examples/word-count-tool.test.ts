import { afterEach, describe, expect, it } from 'vitest'
import { createTestHost, type TestHost } from '../../testing.js'
import { example } from './paths.js'

let t: TestHost | undefined
afterEach(() => t?.close())

describe('example: word-count-tool', () => {
  it('registers a tool the model sees and answers its calls', async () => {
    t = await createTestHost({
      mods: [example('mods/word-count-tool')],
      script: [
        { reply: [{ tool_use: { name: 'mcp__word-count__WordCount', input: { text: 'one two\nthree' } } }] },
        { reply: [{ tool_use: { name: 'mcp__word-count__WordCount', input: { words: 3 } } }] },
        { reply: 'three words' },
      ],
    })
    const { messages, result } = await t.run('count')
    const tool = (t.model.requests[0]!.tools ?? []).find((d) => d.name === 'mcp__word-count__WordCount')
    expect(tool).toMatchObject({ description: 'Counts the words, lines and characters of a text.', input_schema: { properties: { text: { type: 'string' } } } })
    const results = messages.flatMap((m) => (m.type === 'user' ? (m.message.content as { type: string; content?: unknown; is_error?: boolean }[]) : [])).filter((b) => b.type === 'tool_result')
    expect(results[0]).toMatchObject({ content: '3 words, 2 lines, 13 characters' })
    expect(results[1]).toMatchObject({ is_error: true })
    expect(result.result).toBe('three words')
  })
})
