import { describe, expect, it } from 'vitest'
import { PromptCache } from '../../testing/prompt-cache.js'

const mark = { type: 'ephemeral' }
const big = (n: number) => 'x'.repeat(n)
/** A body whose system block alone is past the 1024-token minimum (four characters a token). */
function body(messages: unknown[], model = 'claude-sonnet-4-5') {
  return { model, max_tokens: 10, system: [{ type: 'text', text: big(6000), cache_control: mark }], messages }
}
const turn = (i: number) => [{ role: 'user', content: [{ type: 'text', text: `q${i} ${big(800)}` }] }, { role: 'assistant', content: [{ type: 'text', text: `a${i}` }] }]

describe('the fake server prompt cache', () => {
  it('writes up to the last breakpoint, then reads the longest prefix written before', () => {
    const cache = new PromptCache(() => 0)
    const first = cache.count(body([{ role: 'user', content: [{ type: 'text', text: 'hi', cache_control: mark }] }])) as any
    expect(first.cache_read_input_tokens).toBe(0)
    expect(first.cache_creation_input_tokens).toBeGreaterThan(1500)
    expect(first.cache_creation).toEqual({ ephemeral_5m_input_tokens: first.cache_creation_input_tokens, ephemeral_1h_input_tokens: 0 })
    const second = cache.count(body([{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'yo' }, { role: 'user', content: [{ type: 'text', text: 'more', cache_control: mark }] }])) as any
    expect(second.cache_read_input_tokens).toBe(first.cache_creation_input_tokens)
    expect(second.cache_creation_input_tokens).toBeGreaterThan(0)
    expect(second.input_tokens).toBeGreaterThan(0)
  })

  it('counts nothing for a request without marks, and refuses what the API refuses', () => {
    const cache = new PromptCache()
    expect(cache.count({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })).toBeNull()
    const five = { model: 'm', system: [1, 2, 3, 4, 5].map((i) => ({ type: 'text', text: `s${i}`, cache_control: mark })), messages: [] }
    expect(cache.count(five)).toEqual({ error: 'A maximum of 4 blocks with cache_control may be provided. Found 5.' })
    expect(cache.count(body([{ role: 'assistant', content: [{ type: 'thinking', thinking: 't', cache_control: mark }] }]))).toHaveProperty('error')
    expect(cache.count(body([{ role: 'user', content: [{ type: 'text', text: '', cache_control: mark }] }]))).toHaveProperty('error')
    const longAfterShort = { model: 'm', system: [{ type: 'text', text: 'a', cache_control: mark }, { type: 'text', text: 'b', cache_control: { type: 'ephemeral', ttl: '1h' } }], messages: [] }
    expect(cache.count(longAfterShort)).toHaveProperty('error')
  })

  it('writes nothing below the model minimum, keeps models apart, and lets entries expire after their TTL', () => {
    let now = 0
    const cache = new PromptCache(() => now)
    const short = { model: 'claude-sonnet-4-5', system: [{ type: 'text', text: big(400), cache_control: mark }], messages: [] }
    expect(cache.count(short)).toMatchObject({ cache_creation_input_tokens: 0 })
    // Haiku 4.5 caches nothing under 4096 tokens: the same 1500-token prefix is too short there.
    expect(cache.count(body([], 'claude-haiku-4-5'))).toMatchObject({ cache_creation_input_tokens: 0 })
    cache.count(body([]))
    expect(cache.count(body([], 'claude-opus-4-1'))).toMatchObject({ cache_read_input_tokens: 0 })
    now = 4 * 60_000
    expect((cache.count(body([])) as any).cache_read_input_tokens).toBeGreaterThan(0)
    // The read refreshed the entry: five minutes after it, not after the write, it is gone.
    now = 8 * 60_000
    expect((cache.count(body([])) as any).cache_read_input_tokens).toBeGreaterThan(0)
    now = 14 * 60_000
    expect((cache.count(body([])) as any).cache_read_input_tokens).toBe(0)
  })

  it('looks back 20 blocks from a breakpoint for an earlier write, and no further', () => {
    const cache = new PromptCache(() => 0)
    const history = (n: number) => Array.from({ length: n }, (_, i) => turn(i)).flat()
    const withMark = (messages: any[]) => {
      const last = messages.at(-1)
      return [...messages.slice(0, -1), { ...last, content: [{ ...last.content[0], cache_control: mark }] }]
    }
    cache.count(body(withMark(history(2))))
    // 8 turns later = 16 more blocks: within reach of the last mark.
    expect((cache.count(body(withMark(history(10)))) as any).cache_read_input_tokens).toBeGreaterThan(1900)
    const far = new PromptCache(() => 0)
    far.count(body(withMark(history(2))))
    far.count(body([]))
    // 11 turns later = 22 more blocks: only the system block's write is found.
    const read = (far.count(body(withMark(history(13)))) as any).cache_read_input_tokens
    expect(read).toBeLessThan(1600)
    expect(read).toBeGreaterThan(1400)
  })
})
