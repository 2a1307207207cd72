import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { startFakeAnthropic } from '../../testing/fake-anthropic.js'
import { builtModloop } from '../helpers/built-cli.js'

let root: string
beforeEach(async () => { root = await mkdtemp(join(tmpdir(), 'modloop-settings-endpoint-')) })
afterEach(() => rm(root, { recursive: true, force: true }))

/** `modloop -p` started against a port nothing listens on, its settings `env` naming the fake server and a key. */
async function run(settings: { user?: object; project?: object }, extraArgs: string[] = []) {
  const home = join(root, 'home')
  const project = join(root, 'project')
  for (const d of [join(home, '.claude'), join(project, '.claude')]) await mkdir(d, { recursive: true })
  const server = await startFakeAnthropic({ script: [{ reply: 'Hello.' }] })
  const env = (e: object) => JSON.parse(JSON.stringify(e).replaceAll('@API@', server.url)) as Record<string, string>
  if (settings.user) await writeFile(join(home, '.claude', 'settings.json'), JSON.stringify({ env: env(settings.user) }))
  if (settings.project) await writeFile(join(project, '.claude', 'settings.json'), JSON.stringify({ env: env(settings.project) }))
  try {
    const result = await builtModloop(['-p', 'hi', ...extraArgs], {
      cwd: project,
      env: { PATH: process.env.PATH, HOME: home, MODLOOP_HOME: join(root, 'modloop-home'), ANTHROPIC_BASE_URL: 'http://127.0.0.1:1', ANTHROPIC_API_KEY: 'sk-launch', CLAUDE_CODE_MAX_RETRIES: '0' },
    })
    return { ...result, keys: server.requests.map((r) => r.headers['x-api-key'] ?? r.headers.authorization) }
  } finally {
    await server.close()
  }
}

it('takes ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY from the user settings env, over the launch environment', async () => {
  const user = await run({ user: { ANTHROPIC_BASE_URL: '@API@', ANTHROPIC_API_KEY: 'sk-user' } })
  expect(user.out).toContain('Hello.')
  expect(user.keys).toEqual(['sk-user'])
})

it('takes ANTHROPIC_AUTH_TOKEN and the endpoint from a trusted project settings env, and not from an untrusted one', async () => {
  const project = { ANTHROPIC_BASE_URL: '@API@', ANTHROPIC_API_KEY: '', ANTHROPIC_AUTH_TOKEN: 'tok-project' }
  const trusted = await run({ project }, ['--trust-workspace'])
  expect(trusted.out).toContain('Hello.')
  expect(trusted.keys).toEqual(['Bearer tok-project'])
  await rm(root, { recursive: true, force: true })
  const untrusted = await run({ project })
  expect(untrusted.code).toBe(1)
  expect(untrusted.keys).toEqual([])
})
