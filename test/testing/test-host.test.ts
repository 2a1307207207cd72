import { describe, expect, it } from 'vitest'
import { createTestHost, defineMod } from '../../testing.js'

const shout = defineMod({
  name: 'shout',
  register(on) {
    on('turn.step', async function* (_$, e, next) {
      const s = next(e)
      for await (const c of s) yield c.kind === 'text' ? { ...c, text: c.text.toUpperCase() } : c
      return await s.result
    })
    on('tool.check', { tool: 'Bash' }, () => ({ decision: 'deny', reason: 'no shell here' }))
  },
})

describe('the test kit', () => {
  it('runs a prompt through the real loop with the scripted model', async () => {
    const t = await createTestHost({ mods: [shout], script: [{ reply: 'quiet please' }] })
    const { result } = await t.run('hello')
    expect(result.result).toBe('QUIET PLEASE')
    expect(t.model.requests).toHaveLength(1)
    expect(t.trace().map((e) => `${e.mod}:${e.event}`)).toContain('shout:turn.step')
    await t.close()
  })

  it('emits one event through the chain and returns the composed result', async () => {
    const t = await createTestHost({ mods: [shout] })
    expect(await t.emit('tool.check', { tool: 'Bash', input: { command: 'ls' } })).toEqual({ decision: 'deny', reason: 'no shell here' })
    expect(await t.emit('tool.check', { tool: 'Read', input: {} })).toEqual({ decision: 'allow' })
    await expect(t.emit('turn.step' as never, {} as never)).rejects.toThrow(/turn.step: nothing beneath the last handler answers/)
    await t.close()
  })
})
