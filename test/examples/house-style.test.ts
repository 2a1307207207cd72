import { afterEach, describe, expect, it } from 'vitest'
import { createTestHost, type TestHost } from '../../testing.js'
import { example } from './paths.js'

let t: TestHost | undefined
afterEach(() => t?.close())

describe('example: house-style', () => {
  it('appends the style to the intro section of the system prompt', async () => {
    t = await createTestHost({ mods: [[example('mods/house-style'), { style: 'Write like a pirate.' }]], script: [{ reply: 'arr' }, { reply: 'arr again' }] })
    await t.run('hi')
    await t.run('again')
    const systems = t.model.requests.map((r) => JSON.stringify(r.system))
    expect(systems[0]).toContain('You are an agent running in modloop')
    expect(systems[0]).toContain('Write like a pirate.')
    // Rendered once per session: the second request carries the same prompt.
    expect(systems[1]).toBe(systems[0])
  })

  it('leaves a section another mod dropped alone', async () => {
    t = await createTestHost({ mods: [example('mods/house-style')] })
    expect(await t.emit('prompt.section', { name: 'intro', text: 'base' }, () => ({ text: null }))).toEqual({ text: null })
    expect(await t.emit('prompt.section', { name: 'tone', text: 'base' })).toEqual({ text: 'base' })
  })
})
