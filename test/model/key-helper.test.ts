import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { KeyHelper } from '../../runtime/model/key-helper.js'
import settingsEnv from '../../mods/settings-env/index.js'
import { withOptions } from '../helpers/with-options.js'
import { runScript, toolsMod } from '../loop/helpers.js'
import { collect, failure, fakeModel } from './helpers.js'

let dir: string
beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'modloop-key-helper-')) })
afterEach(async () => { await rm(dir, { recursive: true, force: true }) })

/** A helper that counts its runs in a file and prints `sk-<run>`. */
async function countingHelper(): Promise<string> {
  const script = join(dir, 'helper.sh')
  await writeFile(script, `n=$(cat "${dir}/runs" 2>/dev/null || echo 0); n=$((n+1)); echo $n > "${dir}/runs"; echo "sk-$n"\n`)
  return `sh ${script}`
}
const runs = async () => Number(await readFile(join(dir, 'runs'), 'utf8'))
const helper = (command: string, env: Record<string, string> = {}, timeoutMs?: number) =>
  new KeyHelper({ command, file: '/settings.json' }, { cwd: dir, env: { PATH: process.env.PATH, ...env }, ...(timeoutMs ? { timeoutMs } : {}) })

describe('apiKeyHelper', () => {
  it('sends the key as x-api-key and Authorization, running the helper once within its TTL', async () => {
    const { model, server } = await fakeModel([{ reply: 'a' }, { reply: 'b' }], { apiKey: undefined, env: {}, keyHelper: helper(await countingHelper()) })
    await collect(model)
    await collect(model)
    expect(server.requests.map((r) => [r.headers['x-api-key'], r.headers.authorization])).toEqual([['sk-1', 'Bearer sk-1'], ['sk-1', 'Bearer sk-1']])
    expect(await runs()).toBe(1)
  })

  it('runs again once the TTL (CLAUDE_CODE_API_KEY_HELPER_TTL_MS) is over, and leaves the environment\'s key in its header', async () => {
    const keyHelper = helper(await countingHelper(), { CLAUDE_CODE_API_KEY_HELPER_TTL_MS: '0' })
    const { model, server } = await fakeModel([{ reply: 'a' }, { reply: 'b' }], { apiKey: undefined, env: { ANTHROPIC_API_KEY: 'sk-env' }, keyHelper })
    await collect(model)
    await collect(model)
    expect(server.requests.map((r) => [r.headers['x-api-key'], r.headers.authorization])).toEqual([['sk-env', 'Bearer sk-1'], ['sk-env', 'Bearer sk-2']])
  })

  it('asks for a new key after a 401 and retries with it', async () => {
    const script = [{ error: { status: 401, type: 'authentication_error', message: 'expired' } }, { reply: 'back' }]
    const { model, server } = await fakeModel(script, { apiKey: undefined, env: {}, keyHelper: helper(await countingHelper()) })
    await collect(model)
    expect(server.requests.map((r) => r.headers['x-api-key'])).toEqual(['sk-1', 'sk-2'])
  })

  it('fails the request with an error naming the setting and its file when the helper fails, prints nothing or hangs', async () => {
    for (const [command, why] of [['echo oops >&2; exit 3', 'exited 3: oops'], ['true', 'printed no key'], ['sleep 30', 'did not finish within 0.3 s']]) {
      const { model, server } = await fakeModel([{ reply: 'never' }], { apiKey: undefined, env: {}, keyHelper: helper(command!, {}, 300) })
      const err = await failure(model)
      expect(err).toMatchObject({ type: 'authentication_failed', message: `apiKeyHelper (/settings.json) failed: ${why}` })
      expect(server.requests).toHaveLength(0)
    }
  })
})

describe('the apiKeyHelper setting', () => {
  // The settings-env mod reads it with the rest of the settings (the managed folder left out).
  const mods = [toolsMod(), withOptions(settingsEnv, { managedDir: false })]
  async function settings(file: string, command: string) {
    await mkdir(join(file, '..'), { recursive: true })
    await writeFile(file, JSON.stringify({ apiKeyHelper: command }))
  }

  it('is read from the user settings, and --settings wins over them', async () => {
    const home = join(dir, 'home')
    await settings(join(home, 'settings.json'), 'echo sk-user')
    const env = { ANTHROPIC_API_KEY: '', CLAUDE_CONFIG_DIR: home }
    const user = await runScript([{ reply: 'done' }], 'go', { cwd: dir, env, mods })
    const flag = await runScript([{ reply: 'done' }], 'go', { cwd: dir, env, mods, settings: JSON.stringify({ apiKeyHelper: 'echo sk-flag' }) })
    expect(user.requests[0]).toMatchObject({ headers: { 'x-api-key': 'sk-user', authorization: 'Bearer sk-user' } })
    expect(flag.requests[0]).toMatchObject({ headers: { 'x-api-key': 'sk-flag' } })
  })

  it('of a project is run only in a trusted workspace', async () => {
    const home = join(dir, 'home')
    await settings(join(home, 'settings.json'), 'echo sk-user')
    await settings(join(dir, 'project', '.claude', 'settings.json'), 'echo sk-project')
    const lines: string[] = []
    const env = { ANTHROPIC_API_KEY: '', CLAUDE_CONFIG_DIR: home, MODLOOP_HOME: join(dir, 'modloop-home') }
    const untrusted = await runScript([{ reply: 'done' }], 'go', { cwd: join(dir, 'project'), env, mods, log: (l) => lines.push(l) })
    const trusted = await runScript([{ reply: 'done' }], 'go', { cwd: join(dir, 'project'), env, mods, trustWorkspace: true })
    expect(untrusted.requests[0]).toMatchObject({ headers: { 'x-api-key': 'sk-user' } })
    expect(lines.join('\n')).toContain('so the apiKeyHelper of')
    expect(trusted.requests[0]).toMatchObject({ headers: { 'x-api-key': 'sk-project' } })
  })
})
