import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { PromptOrigin } from '../../core/events/types.js'
import { createTestHost, defineMod } from '../../testing.js'
import { query } from '../../entry.js'
import { createScriptedModel } from '../../testing/model/scripted.js'
import type { ModApi } from '../../core/mod/api.js'
import type { SDKUserMessage } from '../../core/loop/messages.js'

/** A streaming input the test feeds: the session waits for input, idle, between prompts. */
function inputs() {
  const waiting: ((r: IteratorResult<SDKUserMessage>) => void)[] = []
  const given: IteratorResult<SDKUserMessage>[] = []
  const put = (r: IteratorResult<SDKUserMessage>) => (waiting.length > 0 ? waiting.shift()!(r) : given.push(r))
  return {
    prompts: { [Symbol.asyncIterator]: () => ({ next: () => (given.length > 0 ? Promise.resolve(given.shift()!) : new Promise<IteratorResult<SDKUserMessage>>((r) => waiting.push(r))) }) },
    send: (text: string) => put({ done: false, value: { type: 'user', message: { role: 'user', content: text }, parent_tool_use_id: null, session_id: '' } }),
    end: () => put({ done: true, value: undefined }),
  }
}

/**
 * Submits `text` once, while the person's first prompt is submitted; keeps the origin of every
 * prompt, and in `log` each turn's start and when the call settled. Not awaited: it settles as its
 * turn starts, after the turn this handler is part of.
 */
function sender(text: string, origins: PromptOrigin[], asUser?: true, log: string[] = []) {
  return defineMod({
    name: 'sender',
    register(on) {
      on('prompt.submit', async ($, e, next) => {
        origins.push(e.origin)
        if (e.origin.kind === 'sdk') {
          $.prompt.submit({ text, ...(asUser ? { asUser } : {}) }).then((r) => log.push(`settled ${JSON.stringify(r)}`), (err: Error) => log.push(`rejected ${err.message}`))
        }
        return next(e)
      })
      on('turn.start', (_$, e, next) => {
        log.push(`turn.start ${e.text}`)
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

  it('resolves when its turn starts, with prompt.submit\'s answer', async () => {
    const log: string[] = []
    const t = await createTestHost({ mods: [sender('check the build', [], true, log)], script: [{ reply: 'first' }, { reply: 'second' }] })
    await t.run('hello')
    expect(log).toEqual(['turn.start hello', 'turn.start check the build', 'settled {"text":"check the build"}'])
    await t.close()
  })

  it('resolves { drop } when a handler drops the prompt', async () => {
    const log: string[] = []
    const dropper = defineMod({
      name: 'dropper',
      register(on) {
        on('prompt.submit', (_$, e, next) => (e.origin.kind === 'plugin' ? { drop: 'not now' } : next(e)))
      },
    })
    const t = await createTestHost({ mods: [sender('check the build', [], true, log), dropper], script: [{ reply: 'first' }] })
    await t.run('hello')
    expect(log).toEqual(['turn.start hello', 'settled {"drop":"not now"}'])
    await t.close()
  })

  it('rejects when the session ends before its turn starts, and when called after', async () => {
    const log: string[] = []
    let late: Promise<unknown> | undefined
    const ender = defineMod({
      name: 'late',
      register(on) {
        on('session.end', ($, e, next) => {
          late = $.prompt.submit({ text: 'more' })
          return next(e)
        })
      },
    })
    const q = query({ prompt: 'hello', options: { bare: true, mods: [sender('check the build', [], true, log), ender], modelProvider: createScriptedModel([{ reply: 'first' }, { reply: 'second' }]) } })
    for await (const m of q) if (m.type === 'result') break
    expect(log).toEqual(['turn.start hello', 'rejected $.prompt.submit: the session ended before the prompt\'s turn started'])
    await expect(late).rejects.toMatchObject({ code: 'MODLOOP_ERR_NOT_RUN', message: 'late: $.prompt.submit refused: the session has ended' })
  })

  it('$.command.run runs the command once the session is idle, with the calling mod as its origin, and resolves with its answer', async () => {
    const origins: PromptOrigin[] = []
    let api: ModApi | undefined
    const runner = defineMod({
      name: 'runner',
      register(on) {
        on('session.start', ($, e, next) => {
          api = $
          $.command.register({ name: 'tidy', description: 'Tidies' })
          return next(e)
        })
        on('command.run', { command: 'tidy' }, (_$, e) => {
          origins.push(e.origin)
          return { output: `tidied ${e.args}` }
        })
      },
    })
    const input = inputs()
    const q = query({ prompt: input.prompts, options: { bare: true, mods: [runner], modelProvider: createScriptedModel([{ reply: 'first' }]) } })
    input.send('hello')
    let ran: Promise<unknown> | undefined
    const results: string[] = []
    for await (const m of q) {
      if (m.type !== 'result') continue
      results.push(m.result ?? m.subtype)
      if (!ran) ran = api!.command.run({ command: 'tidy', args: 'the desk' })
      else input.end()
    }
    await expect(ran).resolves.toEqual({ output: 'tidied the desk' })
    expect(results).toEqual(['first', 'tidied the desk'])
    expect(origins).toEqual([{ kind: 'plugin', name: 'runner' }])
  })

  it('$.command.run rejects inside a handler the running turn waits on, and runs nothing', async () => {
    const said: string[] = []
    const runner = defineMod({
      name: 'runner',
      register(on) {
        on('session.start', ($, e, next) => {
          $.command.register({ name: 'tidy', description: 'Tidies' })
          return next(e)
        })
        on('prompt.submit', async ($, e, next) => {
          if (e.origin.kind === 'sdk') await $.command.run({ command: 'tidy' }).catch((err: Error) => said.push(err.message))
          return next(e)
        })
        on('command.run', { command: 'tidy' }, () => ({ output: 'tidied' }))
      },
    })
    const t = await createTestHost({ mods: [runner], script: [{ reply: 'first' }] })
    const { messages } = await t.run('hello')
    expect(said).toEqual(['runner: $.command.run refused inside runner (prompt.submit), a handler the running turn waits on: /tidy could only run after it; run it once the session is idle (from a $.clock.after callback, say)'])
    expect(messages.filter((m) => m.type === 'result')).toHaveLength(1)
    await t.close()
  })

  it('$.command.run rejects MODLOOP_ERR_NOT_RUN when the session ends before the command ran', async () => {
    let queued: Promise<unknown> | undefined
    const runner = defineMod({
      name: 'runner',
      register(on) {
        on('session.start', ($, e, next) => {
          $.command.register({ name: 'tidy', description: 'Tidies' })
          // Queued from a timer, as no handler of the mod runs then; the caller stops reading after the first result.
          $.clock.after(0, () => { queued = $.command.run({ command: 'tidy' }) })
          return next(e)
        })
      },
    })
    const slow = defineMod({
      name: 'slow',
      register(on) {
        on('turn.start', async (_$, e, next) => {
          await new Promise((r) => setTimeout(r, 5))
          return next(e)
        })
      },
    })
    const q = query({ prompt: 'hello', options: { bare: true, mods: [runner, slow], modelProvider: createScriptedModel([{ reply: 'first' }, { reply: 'second' }]) } })
    for await (const m of q) if (m.type === 'result') break
    expect(queued).toBeDefined()
    await expect(queued).rejects.toMatchObject({ code: 'MODLOOP_ERR_NOT_RUN', message: '$.command.run: the session ended before /tidy ran' })
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

  it('sends its attachments as content blocks after the text, and prompt.submit sees their kinds only', async () => {
    const png = Buffer.from('\x89PNG fake bytes').toString('base64')
    const seen: unknown[] = []
    const sender = defineMod({
      name: 'sender',
      register(on) {
        on('prompt.submit', ($, e, next) => {
          seen.push(e.attachments)
          if (e.origin.kind === 'sdk') {
            void $.prompt.submit({ text: 'look at these', asUser: true, attachments: [
              { type: 'image', mediaType: 'image/png', base64: png },
              { type: 'document', mediaType: 'text/plain', base64: Buffer.from('the notes').toString('base64'), filename: 'notes.txt' },
            ] })
          }
          return next(e)
        })
      },
    })
    const t = await createTestHost({ mods: [sender], script: [{ reply: 'first' }, { reply: 'second' }] })
    await t.run('hello')
    expect(t.model.requests[1]?.messages.at(-1)?.content).toEqual([
      { type: 'text', text: 'look at these' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } },
      { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'the notes' }, title: 'notes.txt' },
    ])
    expect(seen).toEqual([undefined, [{ type: 'image', mediaType: 'image/png' }, { type: 'document', mediaType: 'text/plain', filename: 'notes.txt' }]])
    await t.close()
  })

  it('refuses attachments it cannot send, naming the field, and queues nothing', async () => {
    const said: string[] = []
    const bad = [
      { type: 'image', mediaType: 'image/png' },
      { type: 'image', mediaType: 'image/tiff', base64: 'AAAA' },
      { type: 'audio', mediaType: 'audio/wav', base64: 'AAAA' },
      { type: 'document', mediaType: 'application/pdf', base64: 'AAAA', filename: 3 },
    ]
    const sender = defineMod({
      name: 'sender',
      register(on) {
        on('prompt.submit', async ($, e, next) => {
          if (e.origin.kind === 'sdk') {
            for (const a of [...bad, 'a picture']) {
              await $.prompt.submit({ text: 'see', attachments: [a] as never }).catch((err: Error) => said.push(err.message))
            }
          }
          return next(e)
        })
      },
    })
    const t = await createTestHost({ mods: [sender], script: [{ reply: 'first' }] })
    await t.run('hello')
    expect(said).toEqual([
      "sender: $.prompt.submit's attachments[0].base64 must be the bytes in base64, not empty",
      "sender: $.prompt.submit's attachments[0].mediaType must be one of image/jpeg, image/png, image/gif, image/webp for image, got image/tiff",
      "sender: $.prompt.submit's attachments[0].type is audio, which the model cannot take: attach an image or a document",
      "sender: $.prompt.submit's attachments[0].filename must be a name that is not empty",
      "sender: $.prompt.submit's attachments[0] must be an object { type, mediaType, base64, filename? }",
    ])
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
