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

  it('fails emit() on a call into $ that nothing answers (no session runs yet), naming the event and the method', async () => {
    const remember = defineMod({
      name: 'remember',
      register(on) {
        on('prompt.submit', async ($, e, next) => {
          $.session.turns()
          return next(e)
        })
      },
    })
    const t = await createTestHost({ mods: [remember] })
    await expect(t.emit('prompt.submit', { text: 'x', origin: { kind: 'sdk' }, wait: false }, (e) => ({ text: e.text }))).rejects.toThrow(/^prompt\.submit: \$\.session\.turns \(called by remember\) was not answered/)
    await t.close()
    // Opting out records the call and lets the dispatch finish.
    const lenient = await createTestHost({ mods: [remember], strict: false })
    expect(await lenient.emit('prompt.submit', { text: 'x', origin: { kind: 'sdk' }, wait: false }, (e) => ({ text: e.text }))).toEqual({ text: 'x' })
    expect(lenient.host.unanswered).toEqual([expect.objectContaining({ mod: 'remember', event: 'prompt.submit', method: 'session.turns' })])
    await lenient.close()
  })

  it('$.ui.ask rejects where no one can answer, and a mod answering AskUserQuestion tool calls answers it', async () => {
    const answers: string[] = []
    const asker = defineMod({
      name: 'asker',
      register(on) {
        on('turn.start', async ($, e, next) => {
          answers.push(await $.ui.ask('Go on?', ['go', 'stop']).catch(() => 'no one answered'))
          return next(e)
        })
      },
    })
    const t = await createTestHost({ mods: [asker], script: [{ reply: 'hi' }] })
    await t.run('hello')
    expect(answers).toEqual(['no one answered'])
    await t.close()
    const person = defineMod({
      name: 'person',
      register(on) {
        on('tool.call', { tool: 'AskUserQuestion' }, () => ({ result: { answers: { 'Go on?': 'stop' } } }))
      },
    })
    const u = await createTestHost({ mods: [asker, person], script: [{ reply: 'hi' }] })
    await u.run('hello')
    expect(answers).toEqual(['no one answered', 'stop'])
    await u.close()
  })

  it('fails run() when the model calls a tool a mod registered but no tool.call handler serves', async () => {
    const half = defineMod({
      name: 'half-tool',
      register(on) {
        on('session.start', async ($, e, next) => {
          await $.tool.register({ name: 'Lookup', description: 'Looks up', inputSchema: { type: 'object' } })
          return next(e)
        })
      },
    })
    const t = await createTestHost({ mods: [half], script: [{ reply: [{ tool_use: { name: 'mcp__half-tool__Lookup', input: {} } }] }, { reply: 'done' }] })
    await expect(t.run('look it up')).rejects.toThrow(/^tool\.call: \$\.tool\.register \(called by half-tool\) was not answered: mcp__half-tool__Lookup: no tool\.call handler/)
    await t.close()
  })
})
