import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ModHost, query, type SDKMessage } from '../../index.js'
import type { ModApi } from '../../core/mod/api.js'
import { channel } from '../helpers/channel.js'
import { defineMod } from '../../testing.js'
import { runCli } from '../helpers/cli.js'

let dir: string
beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-reload-')))
})
afterEach(() => rm(dir, { recursive: true, force: true }))

/** A mod file whose Greet tool answers `version`. */
const greeter = (version: string) => `export function register(on) {
  on('session.start', async ($, e, next) => {
    await $.tool.register({ name: 'Greet', description: 'Greets', inputSchema: { type: 'object' }, isReadOnly: true, call: () => ({ result: '${version}' }) })
    return next(e)
  })
}
`
/** The same as a typed TS mod importing the host, as a mod author writes it. */
const typedGreeter = (version: string) => `import { defineMod } from 'modloop'
import { z } from 'zod'
export default defineMod({
  name: 'greeter',
  options: z.object({ version: z.string().default('${version}') }),
  register(on, options) {
    on('session.start', async ($, e, next) => {
      await ($.tool.register as (spec: object) => Promise<unknown>)({ name: 'Greet', description: 'Greets', inputSchema: { type: 'object' }, isReadOnly: true, call: () => ({ result: options.version }) })
      return next(e)
    })
  },
})
`
const greet = { reply: [{ tool_use: { name: 'Greet', input: {} } }] }

/** Runs a session turn by turn: `turns[i]` is sent after the i-th result (with `between` awaited first). */
async function session(prompts: string[], script: unknown[], between: ((turn: number) => Promise<void>)[], watchMods = false, file = 'greeter.mjs') {
  const input = channel()
  // After the last prompt's result the input ends, and with it the session.
  const next = (text: string | undefined) => (text === undefined ? input.close() : input.send(text))
  const messages: SDKMessage[] = []
  next(prompts[0])
  let turn = 0
  for await (const m of query({ prompt: input.input, options: { cwd: dir, script, watchMods, mods: [join(dir, file)], bare: false, config: join(dir, 'modloop.config.json') } })) {
    messages.push(m)
    if (m.type !== 'result') continue
    await between[turn]?.(turn)
    turn++
    next(prompts[turn])
  }
  return messages
}

const toolResults = (messages: SDKMessage[]) => messages.flatMap((m) => (m.type === 'user' ? (m.message.content as { type: string; content?: unknown }[]) : [])).filter((b) => b.type === 'tool_result').map((b) => b.content)
const results = (messages: SDKMessage[]) => messages.filter((m) => m.type === 'result').map((m) => (m as { result?: string }).result)

describe('hot reload', () => {
  it('host.reload keeps the mod in its place in the chain, and the last good version when the new one fails', async () => {
    const log: string[] = []
    const mark = (name: string, tag = name) => defineMod({ name, register(on) { on('tool.call', (_$, e, next) => { log.push(tag); return next(e) }) } })
    const host = new ModHost()
    for (const name of ['a', 'b', 'c']) await host.add(mark(name))
    host.bind()
    const call = () => host.bus.emit('tool.call', { tool: 'X', tool_use_id: 't' }, () => ({ result: 1 }))
    expect(await host.reload('b', mark('b', 'b2'))).toBeUndefined()
    await call()
    expect(log.splice(0)).toEqual(['a', 'b2', 'c'])
    const broken = defineMod({ name: 'b', register() { throw new Error('broken on purpose') } })
    const error = await host.reload('b', broken)
    expect(error).toMatchObject({ code: 'MODLOOP_ERR_MOD_REGISTER', message: expect.stringContaining('broken on purpose') })
    await call()
    expect(log).toEqual(['a', 'b2', 'c'])
    expect(host.errors).toEqual([])
    await host.close()
  })

  it('a call through the $ of a copy that was reloaded is refused: an old timer cannot act beside the new copy', async () => {
    const apis: ModApi[] = []
    const copy = () => defineMod({ name: 'ticker', register(_on, _options, $) { apis.push($) } })
    const host = new ModHost()
    host.provide({ 'session.id': () => 's1' })
    await host.add(copy())
    host.bind()
    expect(await host.reload('ticker', copy())).toBeUndefined()
    const [old, current] = apis
    expect(() => old!.session.id()).toThrow(expect.objectContaining({
      code: 'MODLOOP_ERR_DISPOSED', message: 'ticker: $.session.id refused: the copy of the mod that made the call is no longer loaded (it was reloaded or removed)',
    }))
    expect(current!.session.id()).toBe('s1')
    await host.close()
  })

  it('/reload re-imports a changed mod file in the running session; a broken file keeps the last good one', async () => {
    await writeFile(join(dir, 'modloop.config.json'), '{"mods": []}')
    await writeFile(join(dir, 'greeter.mjs'), greeter('v1'))
    const messages = await session(
      ['greet', '/reload', 'greet again', '/reload greeter', 'greet once more'],
      [greet, { reply: 'v1 said' }, greet, { reply: 'v2 said' }, greet, { reply: 'still v2' }],
      [
        () => writeFile(join(dir, 'greeter.mjs'), greeter('v2')),
        async () => {},
        () => writeFile(join(dir, 'greeter.mjs'), 'export function register(on) { on(\n'),
      ],
    )
    expect(toolResults(messages)).toEqual(['v1', 'v2', 'v2'])
    const [, reload, , failed] = results(messages)
    expect(reload).toBe(`greeter: reloaded from ${join(dir, 'greeter.mjs')}`)
    expect(failed).toMatch(/^greeter: .*greeter\.mjs did not load, so the last good version stays: /)
  })

  it('--watch-mods: a saved change to a TS mod is picked up before the next turn', async () => {
    await writeFile(join(dir, 'modloop.config.json'), '{"mods": []}')
    await writeFile(join(dir, 'greeter.ts'), typedGreeter('v1'))
    const messages = await session(
      ['greet', 'greet again'],
      [greet, { reply: 'one' }, greet, { reply: 'two' }],
      [async () => {
        await writeFile(join(dir, 'greeter.ts'), typedGreeter('v2'))
        await new Promise((r) => setTimeout(r, 400))
      }],
      true,
      'greeter.ts',
    )
    expect(toolResults(messages)).toEqual(['v1', 'v2'])
    const notice = messages.find((m) => m.type === 'system' && (m as { subtype?: string }).subtype === 'informational')
    expect(notice).toMatchObject({ level: 'info', content: expect.stringContaining('greeter: reloaded from') })
  })

  it('--watch-mods: a saved change that does not load is shown as a warning, and the last good version goes on answering', async () => {
    await writeFile(join(dir, 'modloop.config.json'), '{"mods": []}')
    await writeFile(join(dir, 'greeter.ts'), typedGreeter('v1'))
    const messages = await session(
      ['greet', 'greet again'],
      [greet, { reply: 'one' }, greet, { reply: 'two' }],
      [async () => {
        await writeFile(join(dir, 'greeter.ts'), 'export default defineMod({ name: \'greeter\', register(on) { on(\n')
        await new Promise((r) => setTimeout(r, 400))
      }],
      true,
      'greeter.ts',
    )
    expect(toolResults(messages)).toEqual(['v1', 'v1'])
    const notices = messages.filter((m) => m.type === 'system' && (m as { subtype?: string }).subtype === 'informational')
    expect(notices).toEqual([expect.objectContaining({
      level: 'warning', content: expect.stringMatching(/^greeter: .*greeter\.ts did not load, so the last good version stays: /),
    })])
    expect(results(messages)).toEqual(['one', 'two'])
  })

  it('modloop -p --watch-mods runs and exits', async () => {
    await writeFile(join(dir, 'greeter.mjs'), greeter('v1'))
    await writeFile(join(dir, 'modloop.config.json'), '{"mods": ["./greeter.mjs"]}')
    const r = await runCli(['-p', 'greet', '--watch-mods'], { script: [greet, { reply: 'hello' }], cwd: dir })
    expect(r).toMatchObject({ code: 0, out: 'hello\n' })
  })
})
