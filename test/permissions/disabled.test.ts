import { existsSync } from 'node:fs'
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { query } from '../../runtime/query.js'
import { runCli } from '../helpers/cli.js'
import { conversation } from '../sdk/conversation.js'
import { toolsMod } from '../loop/helpers.js'

let dir: string
beforeEach(async () => { dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-noperms-'))) })
afterEach(() => rm(dir, { recursive: true, force: true }))

const cli = (args: string[], script: unknown = []) => runCli(args, { script, cwd: dir, env: { HOME: dir, MODLOOP_HOME: join(dir, 'modloop-home') } })
const withoutPermissions = () => writeFile(join(dir, 'modloop.config.json'), JSON.stringify({ extends: 'modloop', mods: [{ name: 'permissions', enabled: false }] }))

describe('with the permissions mod disabled', () => {
  it('a --permission-mode plan run is refused: no mod owns permission modes', async () => {
    await withoutPermissions()
    const r = await cli(['-p', 'hi', '--permission-mode', 'plan'], [{ reply: 'never' }])
    expect(r.code).not.toBe(0)
    expect(r.err).toContain('MODLOOP_ERR_CAPABILITY_MISSING')
    expect(r.err).toMatch(/permission mode "plan".*no loaded mod owns permission modes \(the "permissionMode" capability/)
    expect(r.requests).toHaveLength(0)
  })

  it('in default mode tools run unchecked', async () => {
    await withoutPermissions()
    const target = join(dir, 'made.txt')
    const r = await cli(['-p', 'make it', '--output-format', 'json'], [
      { reply: [{ tool_use: { name: 'Bash', input: { command: `touch ${target}` } } }] },
      { reply: 'made' },
    ])
    expect(r.code).toBe(0)
    expect(JSON.parse(r.out)).toMatchObject({ subtype: 'success', permission_denials: [] })
    expect(existsSync(target)).toBe(true)
  })

  it("query({ options: { permissionMode: 'plan' } }) is refused with the coded error", async () => {
    const q = query({ prompt: 'hi', options: { cwd: dir, bare: true, mods: [toolsMod()], permissionMode: 'plan', script: [{ reply: 'never' }] } })
    await expect(q.next()).rejects.toMatchObject({ code: 'MODLOOP_ERR_CAPABILITY_MISSING', field: 'permissionMode' })
  })

  it('setPermissionMode() is refused: the mode has no owner to go to', async () => {
    const c = await conversation([{ reply: 'one' }], { cwd: dir, mods: [toolsMod()] })
    try {
      await c.say('hello')
      await expect(c.q.setPermissionMode('acceptEdits')).rejects.toThrow(/no loaded mod owns permission modes/)
      const init = c.seen.find((m) => m.type === 'system' && (m as { subtype?: string }).subtype === 'init') as { permissionMode?: string }
      expect(init.permissionMode).toBe('default')
    } finally {
      await c.end()
    }
  })
})
