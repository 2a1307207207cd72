import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { startFakeAnthropic } from '../../testing/fake-anthropic.js'
import { builtModloop } from '../helpers/built-cli.js'
import { lastUserTexts } from '../shell-hooks/helpers.js'

let root: string
beforeEach(async () => { root = await mkdtemp(join(tmpdir(), 'modloop-settings-env-cli-')) })
afterEach(() => rm(root, { recursive: true, force: true }))

/** `modloop -p` with the default distribution: a SessionStart hook and a Bash command each report SENV_*. */
async function cli(extraArgs: string[]) {
  const home = join(root, 'home')
  const project = join(root, 'project')
  const out = join(root, 'out')
  for (const d of [join(home, '.claude'), join(project, '.claude'), out]) await mkdir(d, { recursive: true })
  await writeFile(join(root, 'record.sh'), `env | grep '^SENV_' | sort > "${out}/$1.env"\n`)
  await writeFile(join(home, '.claude', 'settings.json'), JSON.stringify({
    env: { SENV_A: 'user', SENV_L: 'user' },
    hooks: { SessionStart: [{ hooks: [{ type: 'command', command: `sh ${join(root, 'record.sh')} start` }] }] },
  }))
  await writeFile(join(project, '.claude', 'settings.json'), JSON.stringify({ env: { SENV_A: 'project', SENV_P: 'project' } }))
  const server = await startFakeAnthropic({ script: { steps: [
    { reply: [{ tool_use: { id: 'toolu_1', name: 'Bash', input: { command: 'echo "$SENV_A $SENV_P $SENV_L $SENV_F $SENV_KEEP"' } } }] },
    { reply: 'done' },
  ] } })
  try {
    const run = await builtModloop(['-p', 'go', '--allowedTools', 'Bash', '--settings', '{"env":{"SENV_F":"flag"}}', ...extraArgs], {
      cwd: project,
      env: { PATH: process.env.PATH, HOME: home, MODLOOP_HOME: join(root, 'modloop-home'), ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'x', SENV_L: 'launch', SENV_KEEP: 'launch' },
    })
    const hook = (await readFile(join(out, 'start.env'), 'utf8')).trim().split('\n')
    return { ...run, hook, bash: lastUserTexts(server.requests[1]!.body)[0] }
  } finally {
    await server.close()
  }
}

it('modloop -p applies the settings env to hooks and Bash; the project env waits for a trusted workspace', async () => {
  const untrusted = await cli([])
  expect(untrusted.code).toBe(0)
  expect(untrusted.hook).toEqual(['SENV_A=user', 'SENV_F=flag', 'SENV_KEEP=launch', 'SENV_L=user'])
  expect(untrusted.bash).toBe('user  user flag launch')
  expect(untrusted.err).toContain('this workspace is not trusted, so the env of its project settings is not applied: SENV_A, SENV_P')

  await rm(root, { recursive: true, force: true })
  const trusted = await cli(['--trust-workspace'])
  expect(trusted.hook).toEqual(['SENV_A=project', 'SENV_F=flag', 'SENV_KEEP=launch', 'SENV_L=user', 'SENV_P=project'])
  expect(trusted.bash).toBe('project project user flag launch')
  expect(trusted.err).not.toContain('not trusted')
})

it('modloop hooks test runs the hooks with the settings env, under the same trust rule', async () => {
  const home = join(root, 'home')
  const project = join(root, 'project')
  for (const d of [join(home, '.claude'), join(project, '.claude')]) await mkdir(d, { recursive: true })
  await writeFile(join(home, '.claude', 'settings.json'), JSON.stringify({
    env: { SENV_A: 'user' },
    hooks: { SessionStart: [{ hooks: [{ type: 'command', command: 'echo "A=$SENV_A P=$SENV_P"' }] }] },
  }))
  await writeFile(join(project, '.claude', 'settings.json'), JSON.stringify({ env: { SENV_P: 'project' } }))
  const env = { PATH: process.env.PATH, HOME: home, MODLOOP_HOME: join(root, 'modloop-home') }
  const untrusted = await builtModloop(['hooks', 'test', 'SessionStart'], { cwd: project, env })
  expect(untrusted.out).toContain('A=user P=')
  expect(untrusted.out).not.toContain('P=project')
  expect(untrusted.err).toContain('the env of its project settings is not applied: SENV_P')
  const trusted = await builtModloop(['hooks', 'test', 'SessionStart', '--trust-workspace'], { cwd: project, env })
  expect(trusted.out).toContain('A=user P=project')
})
