import { existsSync } from 'node:fs'
import { readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { main } from '../../cli/main.js'
import { gitCommitAll, marketplaceDirs, plugin } from './marketplace-fixture.js'

let dir: string
let home: string
let project: string
let market: string
beforeEach(async () => {
  ;({ dir, home, project, market } = await marketplaceDirs('modloop-market-'))
})
afterEach(() => rm(dir, { recursive: true, force: true }))

const json = async (...path: string[]) => JSON.parse(await readFile(join(...path), 'utf8'))
const run = (...args: string[]) => plugin(args, project, home)

describe('modloop plugin, with a marketplace that is a folder', () => {
  it('adds, installs, lists, disables, enables and uninstalls, writing the files Claude Code writes', async () => {
    expect(await run('marketplace', 'add', market)).toEqual({ code: 0, err: '', out: '✔ Successfully added marketplace: localmp (declared in user settings)\n' })
    const source = { source: 'directory', path: market }
    expect(await json(home, '.claude/plugins/known_marketplaces.json')).toEqual({ localmp: { source, installLocation: market, lastUpdated: expect.any(String) } })
    expect((await run('marketplace', 'add', market)).out).toBe("✔ Marketplace 'localmp' already on disk — declared in user settings\n")
    expect((await run('marketplace', 'list')).out).toBe(`Configured marketplaces:\n\n  ❯ localmp\n    Source: Folder (${market})\n\n`)

    expect(await run('install', 'hello@localmp')).toEqual({ code: 0, err: '', out: 'Installing plugin "hello@localmp"...✔ Successfully installed plugin: hello@localmp (scope: user)\n' })
    const installPath = join(home, '.claude/plugins/cache/localmp/hello/1.0.0')
    expect(await json(home, '.claude/plugins/installed_plugins.json')).toEqual({
      version: 2, plugins: { 'hello@localmp': [{ scope: 'user', installPath, version: '1.0.0', installedAt: expect.any(String), lastUpdated: expect.any(String) }] },
    })
    expect(existsSync(join(installPath, 'commands/hi.md'))).toBe(true)
    expect(await json(home, '.claude/settings.json')).toEqual({ extraKnownMarketplaces: { localmp: { source } }, enabledPlugins: { 'hello@localmp': true } })
    expect((await run('i', 'hello')).out).toBe(`Installing plugin "hello"...✔ Plugin "hello@localmp" is already installed (scope: user) — it loads in place from ${market}/plugins/hello\n`)
    expect((await run('list')).out).toBe(`Installed plugins:\n\n  ❯ hello@localmp\n    Version: 1.0.0\n    Read from: ${market}/plugins/hello\n    Scope: user\n    Status: ✔ enabled\n\n`)

    expect((await run('disable', 'hello@localmp')).out).toBe('✔ Successfully disabled plugin: hello (scope: user)\n')
    expect((await json(home, '.claude/settings.json')).enabledPlugins).toEqual({ 'hello@localmp': false })
    expect(await run('disable', 'hello')).toEqual({ code: 1, out: '', err: '✘ Failed to disable plugin "hello": Plugin "hello@localmp" is already disabled\n' })
    expect((await run('list', '--json')).out).toContain('"enabled": false')
    expect((await run('enable', 'hello')).out).toBe('✔ Successfully enabled plugin: hello (scope: user)\n')

    expect((await run('uninstall', 'hello@localmp')).out).toBe('✔ Successfully uninstalled plugin: hello (scope: user)\n')
    expect(await json(home, '.claude/plugins/installed_plugins.json')).toEqual({ version: 2, plugins: {} })
    expect((await json(home, '.claude/settings.json')).enabledPlugins).toEqual({})
    expect(existsSync(installPath)).toBe(false)
    expect(await run('remove', 'hello@localmp')).toEqual({ code: 1, out: '', err: '✘ Failed to uninstall plugin "hello@localmp": Plugin "hello@localmp" not found in installed plugins\n' })
  })

  it('names what is unknown, exit 1: a plugin, a marketplace, a path, a bad marketplace.json', async () => {
    await run('marketplace', 'add', market)
    expect(await run('install', 'nope@localmp')).toEqual({ code: 1, out: 'Installing plugin "nope@localmp"...', err: '✘ Failed to install plugin "nope@localmp": Plugin "nope" not found in marketplace "localmp". Your local copy may be out of date — try `modloop plugin marketplace update localmp`.\n' })
    expect((await run('install', 'hello@other')).err).toContain('Plugin "hello" not found in marketplace "other"')
    expect((await run('install', 'nope')).err).toBe('✘ Failed to install plugin "nope": Plugin "nope" not found in any configured marketplace.\n')
    expect(await run('marketplace', 'add', join(dir, 'none'))).toEqual({ code: 1, out: '', err: `✘ Path does not exist: ${join(dir, 'none')}\n` })
    await writeFile(join(market, '.claude-plugin/marketplace.json'), JSON.stringify({ plugins: [{ name: 1 }] }))
    const bad = await run('marketplace', 'add', market)
    expect(bad.code).toBe(1)
    expect(bad.err).toBe(`✘ Failed to add marketplace: Failed to parse marketplace file at ${market}/.claude-plugin/marketplace.json: Invalid schema: ${market}/.claude-plugin/marketplace.json name: Invalid input: expected string, received undefined, owner: Invalid input: expected object, received undefined, plugins.0.name: Invalid input: expected string, received number, plugins.0.source: Invalid input\n`)
    expect(await run('marketplace', 'remove', 'nomp')).toEqual({ code: 1, out: '', err: "✘ Failed to remove marketplace: Marketplace 'nomp' not found\n" })
    expect((await run('marketplace', 'update', 'nomp')).err).toBe("✘ Failed to update marketplace(s): Marketplace 'nomp' not found. Available marketplaces: localmp\n")
  })

  it('--scope project and local enable it in .claude/settings.json and settings.local.json, the install recording the project', async () => {
    await run('marketplace', 'add', market)
    expect((await run('install', 'hello@localmp', '--scope', 'project')).out).toBe('Installing plugin "hello@localmp"...✔ Successfully installed plugin: hello@localmp (scope: project)\n')
    expect((await run('install', 'hello@localmp', '-s', 'local')).out).toBe('Installing plugin "hello@localmp"...✔ Successfully installed plugin: hello@localmp (scope: local)\n')
    expect(await json(project, '.claude/settings.json')).toEqual({ enabledPlugins: { 'hello@localmp': true } })
    expect(await json(project, '.claude/settings.local.json')).toEqual({ enabledPlugins: { 'hello@localmp': true } })
    const records = (await json(home, '.claude/plugins/installed_plugins.json')).plugins['hello@localmp']
    expect(records.map((r: { scope: string; projectPath?: string }) => [r.scope, r.projectPath])).toEqual([['project', project], ['local', project]])
    // Without --scope, the nearest scope it is installed in.
    expect((await run('disable', 'hello@localmp')).out).toBe('✔ Successfully disabled plugin: hello (scope: local)\n')
    expect(await json(project, '.claude/settings.local.json')).toEqual({ enabledPlugins: { 'hello@localmp': false } })
    expect((await run('uninstall', 'hello@localmp')).err).toBe('✘ Failed to uninstall plugin "hello@localmp": Plugin "hello@localmp" is installed in local scope, not user. Use --scope local to uninstall.\n')
    expect(JSON.parse((await run('uninstall', 'hello', '--scope', 'user', '--json')).out)).toMatchObject({ failureCode: 'not_installed_at_scope', installedScope: 'local' })
  })

  it('takes `plugins` for `plugin`', async () => {
    let out = ''
    const io = { stdout: { write: (t: string) => (out += t) }, stderr: { write: () => true }, cwd: project, env: { HOME: home, PATH: process.env.PATH } }
    expect(await main(['plugins', 'marketplace', 'add', market], io)).toBe(0)
    expect(await main(['plugins', 'i', 'hello@localmp'], io)).toBe(0)
    expect(out).toBe('✔ Successfully added marketplace: localmp (declared in user settings)\nInstalling plugin "hello@localmp"...✔ Successfully installed plugin: hello@localmp (scope: user)\n')
  })
})

describe('modloop plugin, with a marketplace that is a git repository', () => {
  it('clones it into plugins/marketplaces/<name>, installs from the clone, pulls on update, and remove deletes the clone', async () => {
    gitCommitAll(market)
    const url = `file://${market}`
    expect((await run('marketplace', 'add', url)).out).toBe('✔ Successfully added marketplace: localmp (declared in user settings)\n')
    const clone = join(home, '.claude/plugins/marketplaces/localmp')
    expect(await json(home, '.claude/plugins/known_marketplaces.json')).toEqual({ localmp: { source: { source: 'git', url }, installLocation: clone, lastUpdated: expect.any(String) } })
    expect(existsSync(join(clone, '.claude-plugin/marketplace.json'))).toBe(true)
    expect((await run('marketplace', 'list')).out).toContain(`Source: Git (${url})`)

    expect((await run('install', 'hello@localmp')).code).toBe(0)
    const [record] = (await json(home, '.claude/plugins/installed_plugins.json')).plugins['hello@localmp']
    expect(record).toMatchObject({ scope: 'user', installPath: join(home, '.claude/plugins/cache/localmp/hello/1.0.0'), gitCommitSha: expect.stringMatching(/^[0-9a-f]{40}$/) })

    await writeFile(join(market, 'plugins/hello/commands/bye.md'), 'Say bye\n')
    gitCommitAll(market, 'bye')
    expect((await run('marketplace', 'update', 'localmp')).out).toBe('✔ Successfully updated marketplace: localmp\n')
    expect(existsSync(join(clone, 'plugins/hello/commands/bye.md'))).toBe(true)

    expect((await run('marketplace', 'rm', 'localmp')).out).toBe('✔ Successfully removed marketplace: localmp\nAlso uninstalled 1 plugin from this marketplace:\n  hello@localmp\nTo use a plugin again, add the marketplace back and reinstall the plugin.\n')
    expect(existsSync(clone)).toBe(false)
    expect(await json(home, '.claude/plugins/known_marketplaces.json')).toEqual({})
    expect(await json(home, '.claude/settings.json')).toEqual({ extraKnownMarketplaces: {}, enabledPlugins: {} })
  })

  it('a plugin without a version is cached under its commit, as Claude Code names it (a folder marketplace\'s under "unknown")', async () => {
    await writeFile(join(market, 'plugins/hello/.claude-plugin/plugin.json'), JSON.stringify({ name: 'hello' }))
    await run('marketplace', 'add', market)
    await run('install', 'hello@localmp')
    expect((await json(home, '.claude/plugins/installed_plugins.json')).plugins['hello@localmp'][0].version).toBe('unknown')
    await run('marketplace', 'remove', 'localmp')
    gitCommitAll(market)
    await run('marketplace', 'add', `file://${market}`)
    await run('install', 'hello@localmp')
    const [record] = (await json(home, '.claude/plugins/installed_plugins.json')).plugins['hello@localmp']
    expect(record.version).toBe(record.gitCommitSha.slice(0, 12))
    expect(existsSync(join(home, '.claude/plugins/cache/localmp/hello', record.version, '.claude-plugin/plugin.json'))).toBe(true)
  })

  it('a repository that cannot be cloned fails naming the URL and git\'s reason', async () => {
    const r = await run('marketplace', 'add', `file://${join(dir, 'no-repo')}`)
    expect(r.code).toBe(1)
    expect(r.err).toMatch(new RegExp(`^✘ Failed to add marketplace: Failed to clone marketplace repository file://${join(dir, 'no-repo')}: .*`))
  })
})

describe('modloop plugin validate', () => {
  it('passes a marketplace with warnings, and lists the errors of a bad one or a bad plugin manifest (exit 1)', async () => {
    const good = await run('validate', market)
    expect(good.code).toBe(0)
    expect(good.out).toMatch(/^Validating marketplace manifest: .*marketplace\.json\n\n⚠ Found 2 warnings:\n\n  ❯ description: .*\n  ❯ plugins\[0\] plugin\.json → author: .*\n\n✔ Validation passed with warnings\n$/)
    await writeFile(join(market, 'plugins/hello/.claude-plugin/plugin.json'), JSON.stringify({ version: 2 }))
    expect(await run('validate', join(market, 'plugins/hello'))).toEqual({ code: 1, err: '', out: `Validating plugin manifest: ${market}/plugins/hello/.claude-plugin/plugin.json\n\n✘ Found 2 errors:\n\n  ❯ name: Invalid input: expected string, received undefined\n  ❯ version: Invalid input: expected string, received number\n\n✘ Validation failed\n` })
    await writeFile(join(market, '.claude-plugin/marketplace.json'), '{"name": "x",')
    const bad = await run('validate', market, '--json')
    expect(bad.code).toBe(1)
    expect(JSON.parse(bad.out)).toMatchObject({ success: false, manifest: { type: 'marketplace', errors: [{ path: 'json', message: expect.stringContaining('Invalid JSON syntax') }] } })
    expect((await run('validate', project)).out).toContain('❯ directory: No manifest found in directory. Expected .claude-plugin/marketplace.json or .claude-plugin/plugin.json')
  })
})
