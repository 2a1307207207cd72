import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { runMain } from '../kit/run-main.js'

const root = fileURLToPath(new URL('../../', import.meta.url))
let dir: string
beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-clear-errors-')))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

function modloop(args: string[]): Promise<{ code: number; out: string; err: string }> {
  expect(existsSync(join(root, 'dist/cli/main.js')), 'run `npm run build` first').toBe(true)
  return new Promise((resolve) => {
    execFile(process.execPath, [join(root, 'bin/modloop.cjs'), ...args], { cwd: dir, env: { ...process.env, MODLOOP_HOME: join(dir, 'home'), ANTHROPIC_API_KEY: '' } }, (error, out, err) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, out, err })
    })
  })
}

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
