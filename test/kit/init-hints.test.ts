import { mkdtemp, readFile, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { runMain } from './run-main.js'

let dir: string
beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-init-hints-')))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

it('init distribution prints a ./ path, and the command it prints works', async () => {
  const r = await runMain(['init', 'distribution', 'my-agent'], dir)
  expect(r.out).toContain('`modloop mods list --config ./my-agent`')
  const listed = await runMain(['mods', 'list', '--config', './my-agent'], dir)
  expect(listed).toMatchObject({ code: 0, err: '' })
})

it('the distribution README adds a mod by the directory init mod creates', async () => {
  await runMain(['init', 'distribution', 'team'], dir)
  const readme = await readFile(join(dir, 'team', 'README.md'), 'utf8')
  expect(readme).not.toContain('my-mod.ts')
  expect(readme).toContain('"./my-mod"')
  const mod = await runMain(['init', 'mod', 'my-mod'], dir)
  expect(mod.out).toContain('created my-mod/: index.ts')
  expect(mod.out).toContain('add "./my-mod" to')
})
