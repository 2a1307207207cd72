import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { query, type SDKMessage } from '../../index.js'

let dir: string
beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-reload-listed-')))
  await writeFile(join(dir, 'modloop.config.json'), '{"mods": ["commands"]}')
})
afterAll(() => rm(dir, { recursive: true, force: true }))

async function run(prompt: string, script: unknown[]) {
  const q = query({ prompt, options: { cwd: dir, config: './modloop.config.json', script, persistSession: false, log: () => undefined } })
  const messages: SDKMessage[] = []
  for await (const m of q) messages.push(m)
  return { q, messages }
}

it('/reload is listed in init, supportedCommands() and /help', async () => {
  const { q, messages } = await run('hi', [{ reply: 'ok' }])
  const init = messages.find((m) => m.type === 'system' && m.subtype === 'init') as { slash_commands: string[] }
  expect(init.slash_commands).toContain('reload')
  expect((await q.supportedCommands()).map((c) => c.name)).toContain('reload')
  const help = (await run('/help', [])).messages.at(-1) as { result?: string }
  expect(help.result).toContain('/reload - Re-import the mods loaded from files')
})
