import { existsSync } from 'node:fs'
import { mkdtemp, readFile, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as testing from '../../testing.js'
import { loadDistribution } from '../../index.js'
import { runCli } from '../helpers/cli.js'
import { runMain } from './run-main.js'
import { runTestFile } from './run-test-file.js'

let dir: string
beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-init-')))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

describe('modloop init', () => {
  it('init mod scaffolds a mod that loads, and whose own test passes', async () => {
    const r = await runMain(['init', 'mod', 'my-guard'], dir)
    expect(r).toMatchObject({ code: 0, err: '' })
    expect(r.out).toContain('created my-guard/: index.ts, my-guard.test.ts')
    const modDir = join(dir, 'my-guard')
    const t = await testing.createTestHost({ mods: [modDir] })
    expect(t.host.errors).toEqual([])
    expect(t.host.get('my-guard')).toMatchObject({ status: 'loaded', options: { refuse: 'rm -rf /' } })
    await t.close()
    expect(await runTestFile(join(modDir, 'my-guard.test.ts'))).toEqual([
      'adds its note to the prompt the model receives',
      'refuses the configured command and lets others through',
    ])
  })

  it('init distribution scaffolds a config that extends the coding distribution and runs', async () => {
    expect((await runMain(['init', 'distribution', 'team-agent'], dir)).code).toBe(0)
    const config = JSON.parse(await readFile(join(dir, 'team-agent', 'modloop.config.json'), 'utf8'))
    expect(config.extends).toBe('modloop')
    const dist = await loadDistribution({ cwd: dir, configPath: './team-agent' })
    expect(dist.errors).toEqual([])
    const names = dist.host.list().map((m) => m.name)
    expect(names).toEqual(expect.arrayContaining(['read', 'bash', 'permissions']))
    expect(names).not.toContain('web-fetch')
    await dist.host.close()
    const run = await runCli(['-p', 'hi', '--config', './team-agent'], { script: [{ reply: 'team ready' }], cwd: dir })
    expect(run).toMatchObject({ code: 0, out: 'team ready\n' })
  })

  it('refuses bad names, unknown kinds and existing directories', async () => {
    expect(await runMain(['init', 'mod', 'Bad_Name'], dir)).toMatchObject({ code: 1, err: expect.stringContaining('must be kebab-case') })
    expect(await runMain(['init', 'plugin', 'x'], dir)).toMatchObject({ code: 1, err: expect.stringContaining('use "mod" or "distribution"') })
    expect(await runMain(['init', 'mod', 'my-guard'], dir)).toMatchObject({ code: 1, err: expect.stringContaining('already exists') })
    expect(existsSync(join(dir, 'x'))).toBe(false)
  })
})
