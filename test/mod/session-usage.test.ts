import { afterEach, describe, expect, it } from 'vitest'
import { createTestHost, defineMod, type TestHost } from '../../testing.js'

let t: TestHost | undefined
afterEach(() => t?.close())

describe('$.session.usage()', () => {
  it('gives the context window as the last request filled it, and the tokens spent by model apart', async () => {
    const seen: any[] = []
    const status = defineMod({
      name: 'status',
      register(on, _options, $) {
        on('turn.complete', async (_$, e, next) => {
          seen.push($.session.usage())
          return next(e)
        })
      },
    })
    t = await createTestHost({
      mods: ['glob', status],
      script: [
        { reply: [{ tool_use: { name: 'Glob', input: { pattern: '*.md' } } }], usage: { input_tokens: 1000, output_tokens: 40 } },
        { reply: 'No markdown here.', usage: { input_tokens: 60, cache_read_input_tokens: 1100, output_tokens: 10 } },
      ],
    })
    await t.run('any markdown?')
    const [usage] = seen
    // The second request held 60 + 1,100 tokens and its answer 10: that is the context now. The
    // first request's 1,040 are spent, not in the window twice.
    expect(usage.context).toEqual({ tokens: 1170, window: 1_000_000, percent: 0 })
    const [model] = Object.values(usage.models) as any[]
    expect(model).toMatchObject({ inputTokens: 1060, outputTokens: 50, cacheReadInputTokens: 1100 })
  })
})
