import { describe, expect, it } from 'vitest'
import type { ConfigSetInput } from '../../core/events/types.js'
import { createTestHost, defineMod } from '../../testing.js'

/** Sets each `{ key, value }` as the person's prompt comes in; keeps each answer, or the rejection's message. */
function setter(said: unknown[], sets: { key: string; value: unknown }[], seen: ConfigSetInput[] = []) {
  return defineMod({
    name: 'setter',
    register(on) {
      on('prompt.submit', async ($, e, next) => {
        for (const s of sets) said.push(await $.config.set(s).catch((err: Error) => `rejected: ${err.message}`))
        return next(e)
      })
      // Its own $.config.set passes this handler by.
      on('config.set', (_$, e, next) => {
        seen.push(e)
        return next(e)
      })
    },
  })
}

/** Watches every config.set; refuses an effort of `max` and lowers `high` to `medium`. */
function guard(seen: ConfigSetInput[]) {
  return defineMod({
    name: 'guard',
    register(on) {
      on('config.set', (_$, e, next) => {
        seen.push(e)
        if (e.key === 'effort' && e.value === 'max') return { deny: 'too dear' }
        return next(e.value === 'high' ? { ...e, value: 'medium' } : e)
      })
    },
  })
}

describe('$.config.set raises config.set', () => {
  it('a mod sees the change with its previous value and origin, may clamp or refuse it; the caller\'s own handlers are passed by', async () => {
    const said: unknown[] = []
    const seen: ConfigSetInput[] = []
    const own: ConfigSetInput[] = []
    const sets = [{ key: 'effort', value: 'low' }, { key: 'effort', value: 'max' }, { key: 'effort', value: 'high' }]
    const t = await createTestHost({ mods: [guard(seen), setter(said, sets, own)], script: [{ reply: 'ok' }] })
    await t.run('hello')
    expect(said).toEqual([{ value: 'low' }, { deny: 'too dear' }, { value: 'medium' }])
    expect(seen.map((e) => [e.key, e.value, e.previous])).toEqual([['effort', 'low', null], ['effort', 'max', expect.anything()], ['effort', 'high', expect.anything()]])
    expect(seen[0]).toMatchObject({ provider: 'core', origin: { kind: 'plugin', name: 'setter' } })
    expect(own).toEqual([])
    expect(t.model.requests[0]?.output_config).toEqual({ effort: 'medium' })
    await t.close()
  })

  it('/effort answers a refusal as not set', async () => {
    const t = await createTestHost({ mods: ['model-switch', guard([])], script: [{ reply: 'ok' }] })
    const { result } = await t.run('/effort max')
    expect(result).toMatchObject({ result: 'Effort not set: too dear' })
    await t.close()
  })

  it('refuses a value of the wrong kind for the row, and rejects an unknown key', async () => {
    const said: unknown[] = []
    const seen: ConfigSetInput[] = []
    const sets = [{ key: 'effort', value: 'hard' }, { key: 'model', value: 7 }, { key: 'theme', value: 'dark' }]
    const t = await createTestHost({ mods: [guard(seen), setter(said, sets)], script: [{ reply: 'ok' }] })
    await t.run('hello')
    expect(said).toEqual([
      { deny: 'effort must be one of low, medium, high, xhigh, max or null, got "hard"' },
      { deny: 'model must be a string or null, got 7' },
      'rejected: setter: $.config.set: unknown key "theme" (modloop keeps: model, effort)',
    ])
    expect(seen).toEqual([])
    await t.close()
  })
})
