import { join } from 'node:path'
import { rm } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import commandsMod from '../../mods/commands/index.js'
import mentionsMod from '../../mods/mentions/index.js'
import { query } from '../../entry.js'
import type { SDKMessage } from '../../core/loop/messages.js'
import { runScript } from '../loop/helpers.js'
import { channel } from '../helpers/channel.js'
import { startFakeAnthropic } from '../helpers/fake-anthropic.js'
import { tempDir, texts, withOptions, writeTree } from '../context/fixtures.js'

// verbatimPrompts and a message's client_composed: the prompt reaches the model as written.

let root: string
let cwd: string
beforeAll(async () => {
  root = await tempDir('verbatim')
  cwd = join(root, 'project')
  await writeTree(root, {
    'project/.claude/commands/greet.md': '---\ndescription: Greets\n---\nSay hello to $ARGUMENTS.\n',
    'project/notes.md': 'SECRET NOTES\n',
    'home/': '',
  })
})
afterAll(() => rm(root, { recursive: true, force: true }))

const mods = () => [withOptions(commandsMod, { home: join(root, 'home') }), mentionsMod]
const wire = (run: { requests: { body: any }[] }) => JSON.stringify(run.requests[0]!.body.messages)

describe('verbatimPrompts', () => {
  it('without it, a slash command expands and an @path is attached (the baseline)', async () => {
    const run = await runScript([{ reply: 'ok' }], '/greet Ada', { cwd, mods: mods() })
    expect(texts(run.requests[0]!.body, 0).join('\n')).toContain('Say hello to Ada.')
    const mentioned = await runScript([{ reply: 'ok' }], 'read @notes.md', { cwd, mods: mods() })
    expect(wire(mentioned)).toContain('SECRET NOTES')
  })

  it('a prompt starting with / runs no command, and an @path attaches nothing: the model reads the text as written', async () => {
    const run = await runScript([{ reply: 'ok' }], '/greet Ada and see @notes.md', { cwd, mods: mods(), verbatimPrompts: true })
    expect(texts(run.requests[0]!.body, 0)[0]).toBe('/greet Ada and see @notes.md')
    expect(wire(run)).not.toContain('Say hello to')
    expect(wire(run)).not.toContain('SECRET NOTES')
    // Not even the note that no such command ran: to the model it is no command at all.
    expect(wire(run)).not.toContain('nothing ran')
    expect(run.result).toMatchObject({ subtype: 'success', result: 'ok' })
  })

  it('a local command is not run either: /cost goes to the model', async () => {
    const run = await runScript([{ reply: 'costs are fine' }], '/cost', { cwd, mods: mods(), verbatimPrompts: true })
    expect(run.requests).toHaveLength(1)
    expect(run.result).toMatchObject({ result: 'costs are fine' })
    expect(run.result).not.toHaveProperty('local_command')
  })

  it('client_composed on one streamed message delivers that one as written; the others expand', async () => {
    const server = await startFakeAnthropic({ script: [{ reply: 'one' }, { reply: 'two' }] })
    const ch = channel()
    const q = query({ prompt: ch.input, options: { bare: true, cwd, mods: mods(), env: { ...process.env, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 't' } } })
    const seen: SDKMessage[] = []
    ch.send('/greet Bob', { client_composed: true })
    ch.send('/greet Cy')
    ch.close()
    try {
      for await (const m of q) seen.push(m)
    } finally {
      await server.close()
    }
    const [first, second] = server.requests.map((r) => r.body as any)
    expect(texts(first, 0)[0]).toBe('/greet Bob')
    expect(texts(second, 2).join('\n')).toContain('Say hello to Cy.')
    expect(seen.filter((m) => m.type === 'result')).toHaveLength(2)
  })
})
