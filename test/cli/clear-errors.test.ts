import { mkdtemp, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { runMain } from '../kit/run-main.js'
import { builtModloop } from '../helpers/built-cli.js'

let dir: string
beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-clear-errors-')))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

const modloop = (args: string[]) => builtModloop(args, { cwd: dir, env: { ...process.env, MODLOOP_HOME: join(dir, 'home'), ANTHROPIC_API_KEY: '' } })

it.each(['missing.mjs', 'missing.json'])('-p --script %s that does not exist says no such file', async (name) => {
  const r = await modloop(['-p', 'go', '--script', name])
  expect(r.code).toBe(1)
  expect(r.err).toContain(`no such file: ${join(dir, name)}`)
  expect(r.err).not.toContain('Require stack')
})

it('why prompt --session with an unknown id says the session does not exist', async () => {
  const r = await runMain(['why', 'prompt', '--session', 'nope'], dir, { MODLOOP_HOME: join(dir, 'home') })
  expect(r.code).toBe(1)
  expect(r.err).toContain('session nope does not exist')
})
