import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'

let dir: string
beforeEach(async () => { dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-unread-'))) })
afterEach(() => rm(dir, { recursive: true, force: true }))

const cli = (args: string[], script: unknown = []) => runCli(args, { script, cwd: dir, env: { HOME: dir, MODLOOP_HOME: join(dir, 'modloop-home') } })
const hooks = { Stop: [{ hooks: [{ type: 'command', command: 'true' }] }] }

describe('config keys read by a mod that is not loaded', () => {
  it('hooks and permissions without their mods: a warning names the file and the mod', async () => {
    const file = join(dir, 'modloop.config.json')
    await writeFile(file, JSON.stringify({ mods: [], hooks, permissions: { deny: ['Bash'] } }))
    const r = await cli(['mods', 'list'])
    expect(r.err).toContain(`${file}: "hooks" is set, but the shell-hooks mod that reads it is not loaded`)
    expect(r.err).toContain(`${file}: "permissions" is set, but the permissions mod that reads it is not loaded`)
    const p = await cli(['-p', 'hi'], [{ reply: 'hello' }])
    expect(p.err).toContain('the shell-hooks mod that reads it is not loaded')
  })

  it('no warning when the mods are loaded', async () => {
    await writeFile(join(dir, 'modloop.config.json'), JSON.stringify({ mods: ['shell-hooks', 'permissions'], hooks, permissions: { deny: ['Bash'] } }))
    const r = await cli(['mods', 'list', '--json'])
    expect(JSON.parse(r.out).warnings).toEqual([])
    expect(r.err).not.toContain('not loaded')
  })
})

describe('config keys a mod declares it reads', () => {
  it('fold into the options of the mod that declares them, whoever wrote it', async () => {
    const { loadDistribution } = await import('../../entry.js')
    await writeFile(join(dir, 'greeting.mjs'), [
      "export default { name: 'greeting', configKeys: { compaction: (options, value) => ({ ...options, folded: value }) }, register() {} }",
    ].join('\n'))
    await writeFile(join(dir, 'modloop.config.json'), JSON.stringify({ mods: [['./greeting.mjs', { own: 1 }]], compaction: { everyMessages: 3 } }))
    const dist = await loadDistribution({ cwd: dir })
    expect(dist.host.get('greeting')?.options).toEqual({ own: 1, folded: { everyMessages: 3 } })
    const { unreadKeyWarnings } = await import('../../runtime/loader/unread-keys.js')
    expect(unreadKeyWarnings(dist.needsMods, dist.host)).toEqual([])
    await dist.host.close()
  })

  it('a key of a mod\'s own, which the loader does not know, folds in from every layer, the child\'s fields winning', async () => {
    const { loadDistribution } = await import('../../entry.js')
    await writeFile(join(dir, 'greeting.mjs'), "export default { name: 'greeting', configKeys: { greeting: (options, value) => ({ ...value, ...options }) }, register() {} }")
    await writeFile(join(dir, 'parent.json'), JSON.stringify({ mods: ['./greeting.mjs'], greeting: { text: 'hi', loud: true } }))
    await writeFile(join(dir, 'modloop.config.json'), JSON.stringify({ extends: './parent.json', greeting: { text: 'hello' } }))
    const dist = await loadDistribution({ cwd: dir })
    expect(dist.host.get('greeting')?.options).toEqual({ text: 'hello', loud: true })
    expect(dist.warnings).toEqual([])
    await dist.host.close()
  })

  it('a key no mod declares is refused naming the file; when a mod failed to load, only a warning', async () => {
    const { loadDistribution } = await import('../../entry.js')
    const file = join(dir, 'modloop.config.json')
    await writeFile(file, JSON.stringify({ mods: [], greting: 'hi' }))
    await expect(loadDistribution({ cwd: dir })).rejects.toMatchObject({ code: 'MODLOOP_ERR_CONFIG_KEY', file, field: 'greting' })
    await writeFile(file, JSON.stringify({ mods: ['./missing.mjs'], greeting: 'hi' }))
    const dist = await loadDistribution({ cwd: dir })
    expect(dist.errors.map((e) => e.code)).toEqual(['MODLOOP_ERR_MOD_RESOLVE'])
    expect(dist.warnings).toEqual([`${file}: "greeting" is set, but no loaded mod declares it reads that key (in its configKeys), so it does nothing`])
    await dist.host.close()
  })

  it('a key only a left-out built-in reads warns, naming that built-in', async () => {
    await writeFile(join(dir, 'modloop.config.json'), JSON.stringify({ extends: 'modloop', mods: [{ name: 'mcp', enabled: false }], mcpServers: { docs: { command: 'true' } } }))
    const r = await cli(['mods', 'list', '--json'])
    expect(JSON.parse(r.out).warnings).toEqual([expect.stringContaining('"mcpServers" is set, but the mcp mod that reads it is not loaded')])
  })
})
