import { describe, expect, it } from 'vitest'
import { createTestHost, defineMod } from '../../testing.js'

/** Appends a user row as each turn starts; keeps what the call answered or why it refused. */
function appender(said: unknown[], content: unknown) {
  return defineMod({
    name: 'appender',
    register(on) {
      on('turn.start', ($, e, next) => {
        try {
          said.push($.session.append({ message: { type: 'user', content } as never }))
        } catch (err) {
          said.push((err as Error).message)
        }
        return next(e)
      })
    },
  })
}

describe('$.session.append', () => {
  it('adds a user row the model reads in its next request, not shown in the stream', async () => {
    const said: unknown[] = []
    const t = await createTestHost({ mods: [appender(said, [{ type: 'text', text: 'the build is red' }])], script: [{ reply: 'noted' }] })
    const { messages } = await t.run('hello')
    expect(said).toEqual([{ message: { type: 'user', content: [{ type: 'text', text: 'the build is red' }], uuid: expect.any(String) }, uuid: expect.any(String) }])
    expect(JSON.stringify(t.model.requests[0]?.messages.at(-1))).toContain('the build is red')
    expect(JSON.stringify(messages)).not.toContain('the build is red')
    await t.close()
  })

  it('refuses a user row with no text, naming the mod', async () => {
    const said: unknown[] = []
    const t = await createTestHost({ mods: [appender(said, [{ type: 'image', source: {} }])], script: [{ reply: 'noted' }] })
    await t.run('hello')
    expect(said).toEqual([expect.stringContaining('appender: $.session.append of a user message needs content')])
    await t.close()
  })
})
