import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SDKMessage } from '../../core/loop/messages.js'
import { query } from '../../entry.js'
import { runMain } from '../kit/run-main.js'
import { project, type Project } from './project.js'

const root = fileURLToPath(new URL('../../', import.meta.url))

let p: Project
beforeAll(async () => {
  p = await project({
    'my-agent/modloop.config.json': { mods: ['read'] },
    'nested/deeper/modloop.config.json': { mods: ['bash'] },
    'empty/README.md': 'no config here',
  })
})
afterAll(() => p.remove())

async function run(config: string): Promise<{ messages: SDKMessage[]; error?: unknown }> {
  const messages: SDKMessage[] = []
  try {
    const q = query({ prompt: 'hi', options: { cwd: p.dir, config, script: [{ reply: 'ok' }], persistSession: false, log: () => undefined } })
    for await (const m of q) messages.push(m)
  } catch (error) {
    return { messages, error }
  }
  return { messages }
}

describe('a relative config path without ./', () => {
  it('--config my-agent names the directory, as init distribution creates it', async () => {
    const r = await runMain(['mods', 'list', '--config', 'my-agent'], p.dir)
    expect(r).toMatchObject({ code: 0, err: '' })
    expect(r.out).toContain('my-agent/modloop.config.json')
    expect(r.out).toContain('read')
  })

  it('--config with a nested relative path, from the repository root', async () => {
    const r = await runMain(['mods', 'list', '--config', 'examples/distributions/coding'], root)
    expect(r).toMatchObject({ code: 0 })
    expect(r.out).toContain('examples/distributions/coding/modloop.config.json')
    expect((await runMain(['mods', 'list', '--config', 'nested/deeper'], p.dir)).out).toContain('bash')
  })

  it('a name that is neither a path nor a package says both were tried', async () => {
    const r = await runMain(['mods', 'list', '--config', 'nowhere'], p.dir)
    expect(r.code).not.toBe(0)
    expect(r.err).toContain(`--config: "nowhere": no file or directory ${p.path('nowhere')}, and no package of that name is installed`)
    const empty = await runMain(['mods', 'list', '--config', 'empty'], p.dir)
    expect(empty.err).toContain(`${p.path('empty')} holds no modloop config`)
  })

  it('query({ config }) takes the same relative path, and its errors name the config option', async () => {
    const ok = await run('my-agent')
    expect(ok.error).toBeUndefined()
    expect(ok.messages.find((m) => m.type === 'system')).toMatchObject({ tools: ['Read'] })
    const bad = await run('nowhere')
    expect(String(bad.error)).toContain('config option: "nowhere": no file or directory')
    expect(String(bad.error)).not.toContain('--config')
  })
})
