import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { needsTrust } from '../../mods/terminal-ui/trust-check.js'

let base: string
let cwd: string
const env = () => ({ MODLOOP_HOME: join(base, 'modloop-home'), HOME: join(base, 'home') })
beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'modloop-trust-check-'))
  cwd = join(base, 'project')
  await mkdir(join(cwd, '.claude'), { recursive: true })
})
afterEach(() => rm(base, { recursive: true, force: true }))

const settings = (name: string, json: unknown) => writeFile(join(cwd, '.claude', name), JSON.stringify(json))

describe('the trust question', () => {
  it.each([
    ['allow rules', 'settings.json', { permissions: { allow: ['Bash(npm test)'] } }, 'permissions that widen access in .claude/settings.json (allow rules)'],
    ['a looser mode', 'settings.local.json', { permissions: { defaultMode: 'bypassPermissions' } }, 'permissions that widen access in .claude/settings.local.json (defaultMode bypassPermissions)'],
    ['extra directories', 'settings.json', { permissions: { additionalDirectories: ['../shared'], defaultMode: 'acceptEdits' } }, 'permissions that widen access in .claude/settings.json (defaultMode acceptEdits, additionalDirectories)'],
    ['an env block', 'settings.local.json', { env: { PATH: './bin' } }, 'environment variables (env) in .claude/settings.local.json'],
  ])('is asked for project settings with %s', async (_what, name, json, reason) => {
    await settings(name, json)
    expect(await needsTrust(cwd, env())).toEqual({ reasons: [reason], store: join(base, 'modloop-home', 'trusted.json') })
  })

  it('is not asked for rules that only narrow: deny, ask, plan mode', async () => {
    await settings('settings.json', { permissions: { deny: ['Bash(rm *)'], ask: ['Bash(git push *)'], allow: [], defaultMode: 'plan' } })
    expect(await needsTrust(cwd, env())).toBeUndefined()
  })

  it('is not asked again once the workspace is trusted', async () => {
    await settings('settings.json', { permissions: { allow: ['Read'] } })
    await mkdir(join(base, 'modloop-home'), { recursive: true })
    await writeFile(join(base, 'modloop-home', 'trusted.json'), JSON.stringify({ workspaces: { [cwd]: { trustedAt: new Date().toISOString() } } }))
    expect(await needsTrust(cwd, env())).toBeUndefined()
  })
})
