import { mkdtemp, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { example } from './paths.js'

let cwd: string
beforeAll(async () => {
  cwd = await realpath(await mkdtemp(join(tmpdir(), 'modloop-reviewer-')))
})
afterAll(() => rm(cwd, { recursive: true, force: true }))

it('reviewer: init reports the plan mode its permissions mod sets, and a run warns about nothing', async () => {
  const r = await runCli(['-p', 'review', '--config', example('distributions/reviewer'), '--output-format', 'stream-json', '--verbose'], {
    script: [{ reply: 'fine' }], cwd, env: { MODLOOP_HOME: join(cwd, '.home'), HOME: cwd },
  })
  expect(r.code, r.err).toBe(0)
  const [init] = r.out.trim().split('\n').map((l) => JSON.parse(l))
  expect(init).toMatchObject({ type: 'system', subtype: 'init', permissionMode: 'plan' })
  expect(r.err).not.toContain('a tool this session does not have')
})
