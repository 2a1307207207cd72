import { describe, expect, it } from 'vitest'
import type { ModelSwitchInput } from '../../core/events/types.js'
import { defineMod } from '../../core/mod/define.js'
import { runScript, toolsMod } from '../loop/helpers.js'
import { run as runSession, tempCwd } from '../sessions/helpers.js'
import { conversation } from './conversation.js'

/** Sees every model.switch; may refuse it, or answer with context for the next request. */
function observer(options: { deny?: (e: ModelSwitchInput) => string | undefined; context?: (e: ModelSwitchInput) => string[] } = {}) {
  const seen: ModelSwitchInput[] = []
  const mod = defineMod({ name: 'observer', register: (on) => on('model.switch', async (_$, e, next) => {
    seen.push({ ...e })
    const reason = options.deny?.(e)
    if (reason) return { deny: reason }
    const r = await next(e)
    return 'deny' in r || !options.context ? r : { ...r, context: options.context(e) }
  }) })
  return { seen, mod }
}

const texts = (message: { content: unknown }) => (message.content as { type: string; text?: string }[]).filter((b) => b.type === 'text').map((b) => b.text!)

describe('context from model.switch', () => {
  it('goes with the next request as an attachment, once', async () => {
    const o = observer({ context: (e) => [`You now run on ${e.to}.`] })
    const c = await conversation([{ reply: 'one' }, { reply: 'two' }, { reply: 'three' }], { model: 'claude-sonnet-4-5', mods: [toolsMod(), o.mod] })
    try {
      await c.say('first')
      await c.q.setModel('opus')
      await c.say('second')
      await c.say('third')
    } finally {
      await c.end()
    }
    const sent = c.server.requests.map((r) => (r.body as any).messages)
    expect(JSON.stringify(sent[0])).not.toContain('You now run on')
    expect(texts(sent[1].at(-1))).toEqual(['second', '<system-reminder>\nYou now run on claude-opus-5-5.\n</system-reminder>'])
    // It stays in the history, and is not delivered again.
    expect(JSON.stringify(sent[2]).split('You now run on').length - 1).toBe(1)
  })
})

describe('model.switch raised by the session itself', () => {
  it('when the fallback model takes over (source auto); its context goes with the retry; the next turn is back on the primary', async () => {
    const o = observer({ context: () => ['The fallback model answers now.'] })
    const c = await conversation([
      { error: { status: 529 }, times: 3 },
      { reply: 'from fallback', expect: { model: 'claude-haiku-5-5' } },
      { reply: 'primary again', expect: { model: 'claude-sonnet-5-5' } },
    ], { model: 'claude-sonnet-5-5', fallbackModel: 'claude-haiku-5-5', mods: [toolsMod(), o.mod], env: { MODLOOP_MAX_RETRIES: '2' } })
    try {
      expect((await c.say('go')).result).toBe('from fallback')
      expect((await c.say('again')).result).toBe('primary again')
    } finally {
      await c.end()
    }
    expect(o.seen).toEqual([expect.objectContaining({ from: 'claude-sonnet-5-5', to: 'claude-haiku-5-5', requested: 'claude-haiku-5-5', source: 'auto', promptCacheWarm: false })])
    const retry = c.server.requests.find((r) => (r.body as any).model === 'claude-haiku-5-5')!
    expect(JSON.stringify((retry.body as any).messages.at(-1))).toContain('The fallback model answers now.')
  })

  it('a refused fallback is not taken: the turn ends with the API error', async () => {
    const o = observer({ deny: (e) => (e.source === 'auto' ? 'stay on the primary' : undefined) })
    const run = await runScript([{ error: { status: 529 }, times: 3 }, { reply: 'never' }], 'go', {
      model: 'claude-sonnet-5-5', fallbackModel: 'claude-haiku-5-5', mods: [toolsMod(), o.mod], env: { MODLOOP_MAX_RETRIES: '2' },
    })
    expect(o.seen.map((e) => e.source)).toEqual(['auto'])
    expect(run.result).toMatchObject({ subtype: 'success', is_error: true, terminal_reason: 'api_error' })
    expect(run.requests.every((r) => r.body.model === 'claude-sonnet-5-5')).toBe(true)
  })

  it('a refusal retried on the fallback model is a switch too', async () => {
    const o = observer()
    const run = await runScript([{ reply: 'I cannot help with that', stop_reason: 'refusal' }, { reply: 'Here you go', expect: { model: 'claude-haiku-5-5' } }], 'go', {
      model: 'claude-sonnet-4-5', fallbackModel: 'claude-haiku-5-5', mods: [toolsMod(), o.mod],
    })
    expect(run.result.result).toBe('Here you go')
    expect(o.seen).toEqual([expect.objectContaining({ from: 'claude-sonnet-4-5', to: 'claude-haiku-5-5', source: 'auto' })])
  })

  it('on resume when the session goes on with another model than it starts on (source resume)', async () => {
    const cwd = await tempCwd('modloop-switch-resume-')
    const first = await runSession([{ reply: 'x' }], 'p', cwd, { model: 'claude-haiku-5-5' })
    // The resumed session's own model takes over from the default.
    const o1 = observer({ context: (e) => [`Resumed on ${e.to}.`] })
    const second = await runSession([{ reply: 'y', expect: { model: 'claude-haiku-5-5' } }], 'q', cwd, { resume: first.sessionId, env: { ANTHROPIC_MODEL: 'claude-sonnet-4-5' } }, [o1.mod])
    expect(second.result.subtype).toBe('success')
    expect(o1.seen).toEqual([expect.objectContaining({ from: 'claude-sonnet-4-5', to: 'claude-haiku-5-5', source: 'resume' })])
    expect(JSON.stringify(second.requests[0]!.body.messages.at(-1))).toContain('Resumed on claude-haiku-5-5.')
    // A model given for the resume replaces the session's own.
    const o2 = observer()
    await runSession([{ reply: 'z', expect: { model: 'claude-opus-4-6' } }], 'r', cwd, { resume: first.sessionId, model: 'claude-opus-4-6' }, [o2.mod])
    expect(o2.seen).toEqual([expect.objectContaining({ from: 'claude-haiku-5-5', to: 'claude-opus-4-6', source: 'resume' })])
    // The same model as the session last ran on (the resume above appended to it): no switch.
    const o3 = observer()
    await runSession([{ reply: 'w', expect: { model: 'claude-opus-4-6' } }], 's', cwd, { resume: first.sessionId, model: 'claude-opus-4-6' }, [o3.mod])
    expect(o3.seen).toEqual([])
  })

  it('a refused resume switch keeps the model the session starts on', async () => {
    const cwd = await tempCwd('modloop-switch-resume-')
    const first = await runSession([{ reply: 'x' }], 'p', cwd, { model: 'claude-haiku-5-5' })
    const o = observer({ deny: () => 'not that one' })
    const second = await runSession([{ reply: 'y', expect: { model: 'claude-sonnet-4-5' } }], 'q', cwd, { resume: first.sessionId, env: { ANTHROPIC_MODEL: 'claude-sonnet-4-5' } }, [o.mod])
    expect(o.seen.map((e) => e.source)).toEqual(['resume'])
    expect(second.result.subtype).toBe('success')
  })
})
