import { rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { writeTree } from './fixture.js'
import { marketplaceDirs, plugin } from './marketplace-fixture.js'

let dir: string
let home: string
let project: string
let market: string
beforeEach(async () => {
  ;({ dir, home, project, market } = await marketplaceDirs('modloop-enabled-'))
  await writeTree(market, { 'plugins/hello/hooks/hooks.json': JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo HOOK-FROM-HELLO' }] }] } }) })
  await plugin(['marketplace', 'add', market], project, home)
})
afterEach(() => rm(dir, { recursive: true, force: true }))

const env = () => ({ HOME: home, CLAUDE_CONFIG_DIR: '', MODLOOP_HOME: join(home, '.modloop') })
const initOf = (out: string) => out.trim().split('\n').map((l) => JSON.parse(l)).find((m) => m.subtype === 'init')
const session = (prompt: string) => runCli(['-p', prompt, '--output-format', 'stream-json', '--verbose'], { script: [{ reply: 'ok' }], cwd: project, env: env() })
const sent = (r: { requests: { body: unknown }[] }) => JSON.stringify((r.requests[0]!.body as { messages: unknown }).messages)

describe('plugins enabled in the settings (enabledPlugins)', () => {
  it('an installed, enabled plugin loads in a -p session: its command, skill, agent and hook, named name@marketplace', async () => {
    await plugin(['install', 'hello@localmp'], project, home)
    const r = await session('/hello:hi Bob')
    expect(r.err).not.toContain('MODLOOP_ERR')
    const init = initOf(r.out)
    // A folder marketplace's plugin loads in place, as in Claude Code.
    expect(init.plugins).toEqual([{ name: 'hello', path: join(market, 'plugins/hello'), source: 'hello@localmp', version: '1.0.0' }])
    expect(init.slash_commands).toEqual(expect.arrayContaining(['hello:hi', 'hello:greet']))
    expect(init.skills).toEqual(['hello:greet'])
    expect(init.agents).toEqual(expect.arrayContaining(['hello:helper']))
    expect(sent(r)).toContain('Say HI-CMD to Bob')
    expect(sent(r)).toContain('HOOK-FROM-HELLO')
  })

  it("its commands get the data directory Claude Code names by the id: plugins/data/<name>-<marketplace>", async () => {
    await writeTree(market, { 'plugins/hello/commands/where.md': 'Data in ${CLAUDE_PLUGIN_DATA}\n' })
    await plugin(['install', 'hello@localmp'], project, home)
    const r = await session('/hello:where')
    const data = join(home, '.claude/plugins/data/hello-localmp')
    expect(sent(r)).toContain(`Data in ${data}`)
  })

  it('a disabled one does not load', async () => {
    await plugin(['install', 'hello@localmp'], project, home)
    await plugin(['disable', 'hello@localmp'], project, home)
    const r = await session('hi')
    expect(initOf(r.out).plugins).toEqual([])
    expect(sent(r)).not.toContain('HOOK-FROM-HELLO')
  })

  it('--setting-sources leaves out the files it does not name, and their enabled plugins', async () => {
    await plugin(['install', 'hello@localmp'], project, home)
    const r = await runCli(['-p', 'hi', '--setting-sources', 'project,local', '--output-format', 'stream-json', '--verbose'], { script: [{ reply: 'ok' }], cwd: project, env: env() })
    expect(initOf(r.out).plugins).toEqual([])
  })

  it("a project's settings enable one only where the user installed it for the project or trusts the workspace", async () => {
    await writeTree(project, { '.claude/settings.json': JSON.stringify({ enabledPlugins: { 'hello@localmp': true, 'ghost@nomp': true } }) })
    const untrusted = await session('hi')
    expect(initOf(untrusted.out).plugins).toEqual([])
    expect(untrusted.err).toContain(`${join(project, '.claude/settings.json')}: enabledPlugins "hello@localmp" is not loaded: this workspace is not trusted`)

    await plugin(['install', 'hello@localmp', '--scope', 'project'], project, home)
    const installed = await session('hi')
    expect(initOf(installed.out).plugins.map((p: { source: string }) => p.source)).toEqual(['hello@localmp'])

    await writeFile(join(project, '.claude/settings.local.json'), JSON.stringify({ enabledPlugins: { 'hello@localmp': false } }))
    expect(initOf((await session('hi')).out).plugins).toEqual([])
  })

  it('a plugin the git marketplace clone holds loads from its installed copy', async () => {
    const { gitCommitAll } = await import('./marketplace-fixture.js')
    gitCommitAll(market)
    await plugin(['marketplace', 'remove', 'localmp'], project, home)
    await plugin(['marketplace', 'add', `file://${market}`], project, home)
    await plugin(['install', 'hello@localmp'], project, home)
    const r = await session('/hello:hi Ann')
    expect(initOf(r.out).plugins).toEqual([{ name: 'hello', path: join(home, '.claude/plugins/cache/localmp/hello/1.0.0'), source: 'hello@localmp', version: '1.0.0' }])
    expect(sent(r)).toContain('Say HI-CMD to Ann')
  })
})

describe('modloop mods list', () => {
  it('names the plugins the settings enable, as a session here loads them', async () => {
    await plugin(['install', 'hello@localmp'], project, home)
    const r = await runCli(['mods', 'list', '--json'], { script: [], cwd: project, env: env() })
    expect(JSON.parse(r.out).plugins).toEqual([{ name: 'hello', path: join(market, 'plugins/hello'), version: '1.0.0' }])
  })
})
