import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import bash from '../../mods/bash/index.js'
import settingsEnv from '../../mods/settings-env/index.js'
import { query } from '../../index.js'
import { startFakeAnthropic } from '../../testing/fake-anthropic.js'
import type { QueryOptions } from '../../runtime/options.js'
import { cmd, hooksMod, lastUserTexts, makeBox, type Box, withOptions } from '../shell-hooks/helpers.js'
import { runScript } from '../loop/helpers.js'

let box: Box
beforeEach(async () => { box = await makeBox() })
afterEach(async () => { await box.remove() })

const userFile = () => join(box.home, '.claude', 'settings.json')
const projectFile = () => join(box.project, '.claude', 'settings.json')
const localFile = () => join(box.project, '.claude', 'settings.local.json')
const put = (file: string, json: unknown) => writeFile(file, JSON.stringify(json))

/** Hooks that record the SENV_* variables they were started with: at SessionStart, and before the Bash call. */
async function recordingHooks(file = userFile(), extra: Record<string, unknown> = {}): Promise<void> {
  const record = join(box.root, 'record.sh')
  await writeFile(record, `env | grep '^SENV_' | sort > "${box.out}/$1.env"\n`)
  await put(file, { ...extra, hooks: {
    SessionStart: [{ hooks: [cmd(`sh ${record} start`)] }],
    PreToolUse: [{ matcher: 'Bash', hooks: [cmd(`sh ${record} pre`)] }],
  } })
}
const recorded = async (name: string) => (await readFile(join(box.out, `${name}.env`), 'utf8')).trim().split('\n').filter(Boolean)

const bashEcho = (vars: string) => ({ reply: [{ tool_use: { id: 'toolu_1', name: 'Bash', input: { command: `echo "${vars}"` } } }] })
const envMod = (extra: Record<string, unknown> = {}) => withOptions(settingsEnv, { home: box.home, managedDir: false, trustStore: box.store, ...extra })

function run(steps: unknown[], options: QueryOptions & { envOptions?: Record<string, unknown> } = {}) {
  const lines: string[] = []
  const { envOptions, ...rest } = options
  const r = runScript(steps, 'go', { cwd: box.project, log: (l) => lines.push(l), ...rest, mods: [envMod(envOptions), bash, hooksMod(box)] })
  return r.then((done) => ({ ...done, lines }))
}

describe('settings env blocks', () => {
  it('reach SessionStart hooks, PreToolUse hooks and Bash, a later source winning per name and over the launch environment', async () => {
    await recordingHooks(userFile(), { env: { SENV_A: 'user', SENV_U: 'user', SENV_L: 'user' } })
    await put(projectFile(), { env: { SENV_A: 'project', SENV_B: 'project', SENV_P: 'project' } })
    await put(localFile(), { env: { SENV_A: 'local', SENV_B: 'local' } })
    await put(join(box.root, 'flag.json'), { env: { SENV_A: 'flag-file', SENV_F: 'flag-file' } })
    const r = await run([bashEcho('$SENV_A $SENV_B $SENV_P $SENV_U $SENV_L $SENV_F $SENV_I $SENV_KEEP'), { reply: 'ok' }], {
      trustWorkspace: true,
      settings: [join(box.root, 'flag.json'), JSON.stringify({ env: { SENV_I: 'inline' } })],
      env: { ...process.env, SENV_L: 'launch', SENV_KEEP: 'launch' },
    })
    const expected = ['SENV_A=flag-file', 'SENV_B=local', 'SENV_F=flag-file', 'SENV_I=inline', 'SENV_KEEP=launch', 'SENV_L=user', 'SENV_P=project', 'SENV_U=user']
    expect(await recorded('start')).toEqual(expected)
    expect(await recorded('pre')).toEqual(expected)
    expect(lastUserTexts(r.requests[1]!.body)[0]).toBe('flag-file local project user user flag-file inline launch')
  })

  it('from managed policy win over every other source', async () => {
    const managed = join(box.root, 'managed')
    await mkdir(join(managed, 'managed-settings.d'), { recursive: true })
    await put(join(managed, 'managed-settings.json'), { env: { SENV_A: 'policy', SENV_B: 'policy' } })
    await put(join(managed, 'managed-settings.d', '10-team.json'), { env: { SENV_B: 'drop-in' } })
    await recordingHooks(userFile(), { env: { SENV_A: 'user', SENV_B: 'user' } })
    await run([{ reply: 'ok' }], { settings: { env: { SENV_A: 'flag' } }, envOptions: { managedDir: managed } })
    expect(await recorded('start')).toEqual(['SENV_A=policy', 'SENV_B=drop-in'])
  })

  it('of project and local settings apply only in a trusted workspace; the user settings apply anyway', async () => {
    await recordingHooks(userFile(), { env: { SENV_U: 'user' } })
    await put(projectFile(), { env: { SENV_P: 'project', PATH: './evil-bin' } })
    await put(localFile(), { env: { SENV_LO: 'local' } })
    const untrusted = await run([bashEcho('$SENV_P|$SENV_LO|$SENV_U')])
    expect(await recorded('start')).toEqual(['SENV_U=user'])
    expect(lastUserTexts(untrusted.requests[1]!.body)[0]).toBe('||user')
    const notice = untrusted.lines.find((l) => l.includes('not trusted'))
    expect(notice).toContain(`SENV_P, PATH (${projectFile()})`)
    expect(notice).toContain(`SENV_LO (${localFile()})`)
    expect(notice).toContain(`modloop trust ${box.project}`)

    await mkdir(join(box.root, 'modloop-home'), { recursive: true })
    await put(box.store, { workspaces: { [box.project]: { trustedAt: new Date().toISOString() } } })
    await put(projectFile(), { env: { SENV_P: 'project' } })
    const trusted = await run([bashEcho('$SENV_P|$SENV_LO|$SENV_U')])
    expect(lastUserTexts(trusted.requests[1]!.body)[0]).toBe('project|local|user')
    expect(trusted.lines.filter((l) => l.includes('not trusted'))).toEqual([])
  })

  it('set numbers and booleans as their text, and skip null, objects, arrays and NUL bytes with a warning naming the file', async () => {
    await recordingHooks(userFile(), { env: {
      SENV_NUM: 5, SENV_BOOL: false, SENV_EMPTY: '', SENV_NULL: null, SENV_OBJ: { a: 1 }, SENV_ARR: [1], SENV_NUL: 'a\u0000b', SENV_OK: 'ok',
    } })
    const r = await run([bashEcho('ok')], { env: { ...process.env, SENV_NULL: 'launch' } })
    expect(await recorded('start')).toEqual(['SENV_BOOL=false', 'SENV_EMPTY=', 'SENV_NULL=launch', 'SENV_NUM=5', 'SENV_OK=ok'])
    expect(lastUserTexts(r.requests[1]!.body)[0]).toBe('ok')
    const warned = r.lines.filter((l) => l.startsWith('settings-env:'))
    expect(warned).toEqual([
      `settings-env: ${userFile()}: env.SENV_NULL: null is not a string, number or boolean; not set`,
      `settings-env: ${userFile()}: env.SENV_OBJ: {"a":1} is not a string, number or boolean; not set`,
      `settings-env: ${userFile()}: env.SENV_ARR: [1] is not a string, number or boolean; not set`,
      `settings-env: ${userFile()}: env: "SENV_NUL" cannot be an environment variable (an empty name, "=" in it, or a NUL byte); not set`,
    ])
  })

  it('an env that is not an object is skipped with a warning; the rest of the file still applies', async () => {
    await recordingHooks(userFile(), { env: ['SENV_A=1'] })
    const r = await run([{ reply: 'ok' }])
    expect(r.lines).toContain(`settings-env: ${userFile()}: env: expected an object of variable names and values; its env is skipped`)
    expect(await recorded('start')).toEqual([])
  })

  it("go on top of an embedder's env: its other variables stay, and neither its object nor process.env is changed", async () => {
    await recordingHooks(userFile(), { env: { SENV_A: 'settings' } })
    const given = { ...process.env, SENV_A: 'embedder', SENV_EMB: 'embedder' }
    const r = await run([bashEcho('$SENV_A $SENV_EMB'), { reply: 'ok' }], { env: given })
    expect(await recorded('start')).toEqual(['SENV_A=settings', 'SENV_EMB=embedder'])
    expect(lastUserTexts(r.requests[1]!.body)[0]).toBe('settings embedder')
    expect(given.SENV_A).toBe('embedder')
    expect(process.env.SENV_A).toBeUndefined()
  })

  it("set in this process's environment when query() is given none, and are put back when the session ends", async () => {
    await recordingHooks(userFile(), { env: { SENV_A: 'settings', SENV_NEW: 'new' } })
    const server = await startFakeAnthropic({ script: { steps: [bashEcho('$SENV_A $SENV_NEW'), { reply: 'ok' }] } })
    vi.stubEnv('ANTHROPIC_BASE_URL', server.url)
    vi.stubEnv('ANTHROPIC_API_KEY', 'test')
    vi.stubEnv('SENV_A', 'process')
    try {
      for await (const _ of query({ prompt: 'go', options: { bare: true, cwd: box.project, mods: [envMod(), bash, hooksMod(box)] } })) { /* drain */ }
      expect(lastUserTexts(server.requests[1]!.body)[0]).toBe('settings new')
      expect(process.env.SENV_A).toBe('process')
      expect('SENV_NEW' in process.env).toBe(false)
    } finally {
      vi.unstubAllEnvs()
      await server.close()
    }
  })
})

describe("the settings' model", () => {
  it('starts a session nothing else names a model for: ANTHROPIC_MODEL from an env block before the model key, an alias resolved, a project one only when trusted', async () => {
    const models = async (options: QueryOptions = {}) => (await run([{ reply: 'a' }, { reply: 'b' }], options)).requests.map((q) => q.body.model)
    await put(userFile(), { model: 'haiku' })
    expect(await models()).toEqual(['claude-haiku-5-5'])
    // The launch's own model comes first.
    expect(await models({ model: 'claude-opus-5-5' })).toEqual(['claude-opus-5-5'])
    await put(projectFile(), { model: 'opus' })
    const untrusted = await run([{ reply: 'a' }])
    expect(untrusted.requests[0]!.body.model).toBe('claude-haiku-5-5')
    expect(await models({ trustWorkspace: true })).toEqual(['claude-opus-5-5'])
    await put(localFile(), { env: { ANTHROPIC_MODEL: 'claude-sonnet-5-5' } })
    expect(await models({ trustWorkspace: true })).toEqual(['claude-sonnet-5-5'])
  })
})

describe("the settings' effortLevel", () => {
  it('is the effort a request asks for unless --effort or CLAUDE_CODE_EFFORT_LEVEL sets one; a bad value leaves the earlier source, xhigh is clamped to the model', async () => {
    const effort = async (options: QueryOptions = {}) => (await run([{ reply: 'a' }], { model: 'claude-opus-5-5', ...options })).requests[0]!.body.output_config?.effort
    await put(projectFile(), { effortLevel: 'high' })
    expect(await effort()).toBe('high')
    expect(await effort({ effort: 'low' })).toBe('low')
    expect(await effort({ env: { ...process.env, CLAUDE_CODE_EFFORT_LEVEL: 'low' } })).toBe('low')
    // `max` is for one session only: the project's level stands.
    await put(localFile(), { effortLevel: 'max' })
    const kept = await run([{ reply: 'a' }], { model: 'claude-opus-5-5' })
    expect(kept.requests[0]!.body.output_config.effort).toBe('high')
    expect(kept.lines.join('\n')).toContain(`${localFile()}: "effortLevel" must be one of low, medium, high, xhigh; ignored`)
    await put(localFile(), { effortLevel: 'xhigh' })
    expect(await effort()).toBe('xhigh')
    expect(await effort({ model: 'claude-opus-4-6' })).toBe('high')
  })

  it("from the user's own settings, applies to the models whose default is not medium", async () => {
    await put(userFile(), { effortLevel: 'low' })
    const effort = async (model: string) => (await run([{ reply: 'a' }], { model })).requests[0]!.body.output_config?.effort
    expect(await effort('claude-opus-4-7')).toBe('low')
    expect(await effort('claude-opus-5-5')).toBe('medium')
  })
})

describe('CLAUDE_CODE_MAX_OUTPUT_TOKENS', () => {
  it("sets the requests' max_tokens, from an env block too, up to what the model can write; a bad value is ignored", async () => {
    const maxTokens = async (value: string, model = 'claude-sonnet-4-5') => {
      await put(userFile(), { env: { CLAUDE_CODE_MAX_OUTPUT_TOKENS: value } })
      return (await run([{ reply: 'a' }], { model })).requests[0]!.body.max_tokens
    }
    expect(await maxTokens('1000')).toBe(1000)
    expect(await maxTokens('999999')).toBe(64_000)
    // Unset or ignored, the request asks for the model's default, half what Sonnet 4.5 can write.
    expect(await maxTokens('lots')).toBe(32_000)
    expect(await maxTokens('0')).toBe(32_000)
  })
})

describe('the request variables', () => {
  it('ANTHROPIC_BETAS and API_TIMEOUT_MS from an env block reach the model requests', async () => {
    await put(userFile(), { env: { ANTHROPIC_BETAS: 'env-beta-1, env-beta-2', API_TIMEOUT_MS: '150' } })
    const r = await run([{ reply: 'too late', delayMs: 600 }, { reply: 'in time' }], { model: 'claude-opus-5-5' })
    expect(r.result.result).toBe('in time')
    expect(r.requests).toHaveLength(2)
    expect((r.requests[1] as unknown as { headers: Record<string, unknown> }).headers['anthropic-beta']).toBe('env-beta-1,env-beta-2')
  })

  it('ANTHROPIC_CUSTOM_HEADERS from an env block is sent with the model requests', async () => {
    await put(userFile(), { env: { ANTHROPIC_CUSTOM_HEADERS: 'X-Gateway-Team: core\nX-Trace:  on ' } })
    const r = await run([{ reply: 'a' }])
    expect((r.requests[0] as unknown as { headers: Record<string, unknown> }).headers).toMatchObject({ 'x-gateway-team': 'core', 'x-trace': 'on' })
  })
})
