import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { PromptOrigin } from '../../core/events/types.js'
import { createTestHost, defineMod } from '../../testing.js'

/** Submits `text` once, while the person's first prompt is submitted; keeps the origin of every prompt. */
function sender(text: string, origins: PromptOrigin[], asUser?: true) {
  return defineMod({
    name: 'sender',
    register(on) {
      on('prompt.submit', async ($, e, next) => {
        origins.push(e.origin)
        if (e.origin.kind === 'sdk') await $.prompt.submit({ text, ...(asUser ? { asUser } : {}) })
        return next(e)
      })
    },
  })
}

describe('$.prompt.submit', () => {
  it('runs as its own turn, raised with the submitting mod as its origin', async () => {
    const origins: PromptOrigin[] = []
    const t = await createTestHost({ mods: [sender('check the build', origins, true)], script: [{ reply: 'first' }, { reply: 'second' }] })
    await t.run('hello')
    expect(origins).toEqual([{ kind: 'sdk' }, { kind: 'plugin', name: 'sender', asUser: true }])
    expect(JSON.stringify(t.model.requests[1]?.messages.at(-1))).toContain('check the build')
    await t.close()
  })

  it('$.command.run raises command.run with the calling mod as its origin', async () => {
    const origins: PromptOrigin[] = []
    const runner = defineMod({
      name: 'runner',
      register(on) {
        on('session.start', ($, e, next) => {
          $.command.register({ name: 'tidy', description: 'Tidies' })
          return next(e)
        })
        on('prompt.submit', async ($, e, next) => {
          if (e.origin.kind === 'sdk') await $.command.run({ command: 'tidy' })
          return next(e)
        })
        on('command.run', { command: 'tidy' }, (_$, e) => {
          origins.push(e.origin)
          return { output: 'tidied' }
        })
      },
    })
    const t = await createTestHost({ mods: [runner], script: [{ reply: 'first' }] })
    await t.run('hello')
    expect(origins).toEqual([{ kind: 'plugin', name: 'runner' }])
    await t.close()
  })

  it('$.command.run rejects a name the session has no command by, and queues nothing', async () => {
    const said: string[] = []
    const runner = defineMod({
      name: 'runner',
      register(on) {
        on('prompt.submit', async ($, e, next) => {
          if (e.origin.kind === 'sdk') await $.command.run({ command: 'nope' }).catch((err: Error) => said.push(err.message))
          return next(e)
        })
      },
    })
    const t = await createTestHost({ mods: [runner], script: [{ reply: 'first' }, { reply: 'second' }] })
    const { messages } = await t.run('hello')
    expect(said).toEqual([expect.stringContaining('runner: $.command.run refused: this session has no command /nope')])
    expect(messages.filter((m) => m.type === 'result')).toHaveLength(1)
    expect(t.model.requests).toHaveLength(1)
    await t.close()
  })

  it('does not expand an @file mention in the text, as the person\'s prompt does', async () => {
    const t = await createTestHost({ mods: ['mentions', sender('look at @notes.txt', [])], script: [{ reply: 'first' }, { reply: 'second' }] })
    await writeFile(join(t.cwd, 'notes.txt'), 'the secret plan')
    await t.run('hello')
    const sent = JSON.stringify(t.model.requests[1]?.messages.at(-1))
    expect(sent).toContain('look at @notes.txt')
    expect(sent).not.toContain('the secret plan')
    await t.close()
  })
})
