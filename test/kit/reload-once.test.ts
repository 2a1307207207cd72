import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { query, type SDKMessage } from '../../index.js'
import { channel } from '../helpers/channel.js'

let dir: string
beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-reload-once-')))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

it('--watch-mods: a change that does not load is reported once, as a warning message, not also logged', async () => {
  await writeFile(join(dir, 'modloop.config.json'), '{"mods": []}')
  await writeFile(join(dir, 'quiet.mjs'), 'export function register(on) {}\n')
  const input = channel()
  const logged: string[] = []
  const messages: SDKMessage[] = []
  input.send('one')
  let turns = 0
  const q = query({ prompt: input.input, options: { cwd: dir, script: [{ reply: 'a' }, { reply: 'b' }], watchMods: true, mods: [join(dir, 'quiet.mjs')], config: join(dir, 'modloop.config.json'), persistSession: false, log: (l) => logged.push(l) } })
  for await (const m of q) {
    messages.push(m)
    if (m.type !== 'result') continue
    if (++turns === 2) { input.close(); continue }
    await writeFile(join(dir, 'quiet.mjs'), 'export function register(on) { on(\n')
    await new Promise((r) => setTimeout(r, 400))
    input.send('two')
  }
  const warnings = messages.filter((m) => m.type === 'system' && (m as { subtype?: string }).subtype === 'informational')
  expect(warnings).toHaveLength(1)
  expect(warnings[0]).toMatchObject({ level: 'warning', content: expect.stringContaining('did not load') })
  expect(logged.filter((l) => l.includes('did not load'))).toEqual([])
})
