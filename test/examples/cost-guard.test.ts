import { z } from 'zod'
import { afterEach, describe, expect, it } from 'vitest'
import { createTestHost, defineMod, type TestHost } from '../../testing.js'
import { example } from './paths.js'

let t: TestHost | undefined
afterEach(() => t?.close())

const echo = defineMod({
  name: 'echo-tool',
  register(on) {
    on('session.start', async ($, e, next) => {
      await $.tool.register({ name: 'Echo', description: 'Echo', input: z.object({ text: z.string() }), isReadOnly: true, call: (i: { text: string }) => ({ result: i.text }) } as never)
      return next(e)
    })
  },
})

describe('example: cost-guard', () => {
  it('answers the next model request itself once the budget is spent', async () => {
    t = await createTestHost({
      mods: [[example('mods/cost-guard'), { budgetUsd: 1 }], echo],
      // A million input tokens on the default model costs more than $1.
      script: [
        { reply: [{ tool_use: { name: 'Echo', input: { text: 'hi' } } }], usage: { input_tokens: 1_000_000 } },
        { reply: 'never sent' },
      ],
    })
    const { result } = await t.run('go', { model: 'claude-sonnet-4-5' })
    expect(t.model.requests).toHaveLength(1)
    expect(result).toMatchObject({ subtype: 'success', is_error: false })
    expect(result.result).toMatch(/^Stopped: this session has spent \$\d+\.\d{4} of its \$1 budget\.$/)
  })

  it('stays out of the way under the budget', async () => {
    t = await createTestHost({ mods: [example('mods/cost-guard')], script: [{ reply: 'cheap', usage: { input_tokens: 10 } }] })
    const { result } = await t.run('go')
    expect(result.result).toBe('cheap')
  })
})
