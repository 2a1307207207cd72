import { describe, expect, it } from 'vitest'
import { defineMod } from '../../core/mod/define.js'
import { conversation } from '../sdk/conversation.js'
import { toolsMod } from '../loop/helpers.js'
import { boundaries, compactionWith, isSummaryRequest, summary } from './helpers.js'

/**
 * The window-based threshold leaves room for the model's reply: 200,000 − min(max output, 20,000)
 * − 13,000. Claude 3.5 Haiku writes at most 8,192 tokens (threshold 178,808); Sonnet 4.5 64,000
 * (threshold 167,000). A context of about 172,000 tokens is under the one and over the other.
 */
describe('the auto compaction threshold after a model switch', () => {
  it('follows the model in use: a context under the old model\'s threshold is compacted once the new one\'s is lower', async () => {
    const c = await conversation([
      { reply: 'one', usage: { input_tokens: 172_000 } },
      { reply: 'two', usage: { input_tokens: 172_100 } },
      summary('SUMMARY'),
      { reply: 'three' },
    ], { model: 'claude-3-5-haiku-20241022', mods: [toolsMod(), compactionWith({ microcompact: false })] })
    try {
      expect((await c.say('first')).result).toBe('one')
      // Still on Haiku: about 172,000 tokens is under its threshold.
      expect((await c.say('second')).result).toBe('two')
      expect(boundaries(c.seen)).toHaveLength(0)
      await c.q.setModel('claude-sonnet-4-5')
      expect((await c.say('third')).result).toBe('three')
    } finally {
      await c.end()
    }
    const b = boundaries(c.seen)
    expect(b).toHaveLength(1)
    expect(b[0]!.compact_metadata).toMatchObject({ trigger: 'auto', pre_tokens: expect.any(Number) })
    expect(b[0]!.compact_metadata.pre_tokens).toBeGreaterThan(167_000)
    expect(b[0]!.compact_metadata.pre_tokens).toBeLessThan(178_808)
    expect(c.server.requests.filter(isSummaryRequest)).toHaveLength(1)
    expect((c.server.requests.at(-1)!.body as any).model).toBe('claude-sonnet-4-5')
  })

  it('follows a switch made during a turn from the next request on', async () => {
    // A tool that switches the model as it runs ($.config.set, as /model does).
    const switcher = defineMod({
      name: 'switcher',
      register(on) {
        on('session.start', async ($, e, next) => {
          await ($.tool.register as (spec: object) => Promise<unknown>)({
            name: 'UseSonnet', description: 'Switches to Sonnet', inputSchema: { type: 'object' }, isReadOnly: true,
            call: async () => ({ result: JSON.stringify(await ($.config.set as (a: object) => Promise<unknown>)({ key: 'model', value: 'claude-sonnet-4-5' })) }),
          })
          return next(e)
        })
      },
    })
    const c = await conversation([
      { reply: [{ tool_use: { name: 'UseSonnet', input: {} } }], usage: { input_tokens: 172_000 } },
      summary('SUMMARY'),
      { reply: 'switched' },
    ], { model: 'claude-3-5-haiku-20241022', mods: [toolsMod(), switcher, compactionWith({ microcompact: false })] })
    try {
      expect((await c.say('switch')).result).toBe('switched')
    } finally {
      await c.end()
    }
    expect(boundaries(c.seen)).toHaveLength(1)
    expect(c.server.requests.filter(isSummaryRequest)).toHaveLength(1)
    expect((c.server.requests.at(-1)!.body as any).model).toBe('claude-sonnet-4-5')
  })
})
