import { existsSync } from 'node:fs'
import { readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { gitCommitAll, marketplaceDirs, plugin } from './marketplace-fixture.js'
import { writeTree } from './fixture.js'

let dir: string
let home: string
let project: string
let market: string
beforeEach(async () => {
  ;({ dir, home, project, market } = await marketplaceDirs('modloop-plugin-update-'))
})
afterEach(() => rm(dir, { recursive: true, force: true }))

const run = (...args: string[]) => plugin(args, project, home)
const records = async () => JSON.parse(await readFile(join(home, '.claude/plugins/installed_plugins.json'), 'utf8')).plugins['hello@localmp']
const bump = (version: string) => writeFile(join(market, 'plugins/hello/.claude-plugin/plugin.json'), JSON.stringify({ name: 'hello', version }))
const cache = (version: string) => join(home, '.claude/plugins/cache/localmp/hello', version)

describe('modloop plugin update', () => {
  it('from a folder marketplace: up to date, then a new version copied into its own folder, the record pointing there', async () => {
    await run('marketplace', 'add', market)
    await run('install', 'hello@localmp')
    expect(await run('update', 'hello')).toEqual({
      code: 0, err: '',
      out: `Checking for updates for plugin "hello"…\nhello is read from its folder, ${market}/plugins/hello: nothing to update. Edits there take effect at the next session start.\n✔ hello is already at the latest version (1.0.0).\n`,
    })
    const [before] = await records()
    await bump('1.1.0')
    const r = await run('update', 'hello@localmp', '--json')
    expect(JSON.parse(r.out)).toEqual({
      command: 'update', outcome: 'ok', plugin: 'hello@localmp', pluginId: 'hello@localmp', scope: 'user',
      message: 'Plugin "hello" updated from 1.0.0 to 1.1.0 for scope user. Restart to apply changes.', updateOutcome: 'updated', oldVersion: '1.0.0', newVersion: '1.1.0',
    })
    const [after] = await records()
    expect(after).toEqual({ ...before, installPath: cache('1.1.0'), version: '1.1.0', lastUpdated: expect.any(String) })
    expect(existsSync(join(cache('1.1.0'), 'commands/hi.md'))).toBe(true)
    expect(existsSync(cache('1.0.0'))).toBe(true)
  })

  it('from a git marketplace: the clone as `marketplace update` left it, with its new commit', async () => {
    gitCommitAll(market)
    await run('marketplace', 'add', `file://${market}`)
    await run('install', 'hello@localmp')
    const [before] = await records()
    await bump('2.0.0')
    gitCommitAll(market, 'two')
    expect((await run('update', 'hello@localmp')).out).toContain('✔ hello is already at the latest version (1.0.0).\n')
    await run('marketplace', 'update', 'localmp')
    expect((await run('update', 'hello@localmp')).out).toBe('Checking for updates for plugin "hello@localmp"…\n✔ Plugin "hello" updated from 1.0.0 to 2.0.0 for scope user. Restart to apply changes.\n')
    const [after] = await records()
    expect(after).toMatchObject({ installPath: cache('2.0.0'), version: '2.0.0', gitCommitSha: expect.stringMatching(/^[0-9a-f]{40}$/) })
    expect(after.gitCommitSha).not.toBe(before.gitCommitSha)
  })

  it('names a plugin not installed, and asks which marketplace when a name is installed from two', async () => {
    expect(await run('update', 'nope')).toEqual({ code: 1, out: 'Checking for updates for plugin "nope"…\n', err: '✘ Failed to update plugin "nope": Plugin "nope" is not installed\n' })
    await writeTree(join(dir, 'mp2'), {
      '.claude-plugin/marketplace.json': JSON.stringify({ name: 'other', owner: { name: 'T' }, plugins: [{ name: 'hello', source: './hello' }] }),
      'hello/.claude-plugin/plugin.json': JSON.stringify({ name: 'hello', version: '1.0.0' }),
    })
    for (const mp of [market, join(dir, 'mp2')]) await run('marketplace', 'add', mp)
    await run('install', 'hello@localmp')
    await run('install', 'hello@other')
    expect(await run('update', 'hello')).toMatchObject({ code: 1, err: 'Plugin "hello" is installed from more than one marketplace. Include the marketplace name to pick one: `modloop plugin update hello@localmp` or `modloop plugin update hello@other`\n' })
  })
})
