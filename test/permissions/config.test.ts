import { mkdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { evaluate } from '../../mods/permissions/evaluate.js'
import { loadPolicy } from '../../mods/permissions/policy.js'
import { permissionsOptions } from '../../mods/permissions/settings-load.js'
import { runCli } from '../helpers/cli.js'
import { runScript } from '../loop/helpers.js'
import { sandbox, type Sandbox } from './helpers.js'

let box: Sandbox
beforeAll(async () => {
  box = await sandbox()
  await mkdir(join(box.root, 'extra'))
  await writeFile(join(box.root, 'extra', 'shared.txt'), 'shared\n')
})
afterAll(() => box.remove())

/** A project whose modloop config holds a top-level `permissions` key (and the mod's own options). */
async function projectWith(name: string, permissions: unknown): Promise<{ cwd: string; file: string }> {
  const cwd = join(box.root, name)
  await mkdir(cwd, { recursive: true })
  const file = join(cwd, 'modloop.config.json')
  const mods = ['bash', 'read', ['permissions', { home: box.home, trustStore: join(box.modloopHome, 'trusted.json'), deny: ['Bash(printf from-options*)'] }]]
  await writeFile(file, JSON.stringify({ mods, permissions }))
  return { cwd, file }
}

const bash = (command: string) => ({ reply: [{ tool_use: { name: 'Bash', input: { command } } }] })
const results = (run: { requests: { body: any }[] }) =>
  run.requests.slice(1).map((r) => r.body.messages.at(-1).content.find((b: any) => b.type === 'tool_result'))
const distribution = { bare: false, mods: [] }

describe("the config's top-level permissions key", () => {
  const permissions = { deny: ['Bash(printf secret*)'], allow: ['Bash(printf ok*)'], additionalDirectories: ['../extra'] }

  it('deny rules always hold; allow rules and directories wait for a trusted workspace', async () => {
    const { cwd } = await projectWith('untrusted', permissions)
    const logs: string[] = []
    const run = await runScript([bash('printf secret'), bash('printf ok'), bash('printf from-options'), { reply: 'done' }], 'go', { ...distribution, cwd, log: (l) => logs.push(l) })
    expect(run.error).toBeUndefined()
    const [secret, ok, fromOptions] = results(run)
    expect(secret).toMatchObject({ is_error: true, content: expect.stringContaining('denied by the rule Bash(printf secret*) (the modloop config)') })
    expect(ok).toMatchObject({ is_error: true, content: expect.stringContaining('requires approval') })
    expect(fromOptions).toMatchObject({ is_error: true, content: expect.stringContaining('Bash(printf from-options*)') })
    expect(logs.join('\n')).toMatch(/not trusted.*allow Bash\(printf ok\*\) \(the modloop config\).*additionalDirectories \.\.\/extra/)
  })

  it('in a trusted workspace the allow rules and the extra directories apply, for the rules and for Read', async () => {
    const { cwd } = await projectWith('trusted', permissions)
    const run = await runScript([
      bash('printf ok'),
      { reply: [{ tool_use: { name: 'Read', input: { file_path: join(box.root, 'extra', 'shared.txt') } } }] },
      { reply: 'done' },
    ], 'go', { ...distribution, cwd, trustWorkspace: true })
    const [ok, read] = results(run)
    expect(ok).toMatchObject({ content: 'ok' })
    expect(read.content).toMatch(/1\s+shared/)
  })

  it('is validated: an unknown key or a bad value names the file and the field', async () => {
    const typo = await projectWith('typo', { alow: ['Bash'] })
    const typoRun = await runScript([{ reply: 'never' }], 'go', { ...distribution, cwd: typo.cwd })
    expect(typoRun.error).toMatchObject({ code: 'MODLOOP_ERR_CONFIG_KEY', message: `${typo.file}: unknown key "permissions.alow"` })
    const mode = await projectWith('mode', { defaultMode: 'yolo' })
    const modeRun = await runScript([{ reply: 'never' }], 'go', { ...distribution, cwd: mode.cwd })
    expect(modeRun.error).toMatchObject({ code: 'MODLOOP_ERR_CONFIG', message: expect.stringContaining(`${mode.file}: "permissions.defaultMode"`) })
    const rule = await projectWith('rule', { deny: [42] })
    const ruleRun = await runScript([{ reply: 'never' }], 'go', { ...distribution, cwd: rule.cwd })
    expect(ruleRun.error).toMatchObject({ code: 'MODLOOP_ERR_CONFIG', message: expect.stringContaining('"permissions.deny[0]"') })
  })

  it('modloop permissions check sees the config rules', async () => {
    const { cwd } = await projectWith('check', permissions)
    const r = await runCli(['permissions', 'check', 'Bash', '{"command":"printf secret"}'], { script: [], cwd })
    expect(r.code).toBe(0)
    expect(r.out).toContain('decision: deny')
    expect(r.out).toContain('rule: Bash(printf secret*) (from the modloop config)')
  })
})

describe('a /path rule in a settings file outside the project', () => {
  it('is relative to that file\'s folder: ~/.claude for the user\'s, the file\'s own for --settings', async () => {
    const cwd = join(box.root, 'slash-rules')
    const flagDir = join(box.root, 'flag-dir')
    for (const dir of [join(box.home, '.claude'), cwd, flagDir]) await mkdir(dir, { recursive: true })
    await writeFile(join(box.home, '.claude', 'settings.json'), JSON.stringify({ permissions: { deny: ['Read(/user.txt)'] } }))
    await writeFile(join(flagDir, 'settings.json'), JSON.stringify({ permissions: { deny: ['Read(/flag.txt)'] } }))
    try {
      const options = permissionsOptions.parse({ home: box.home, managedDir: false, trustStore: join(box.modloopHome, 'trusted.json') })
      const policy = await loadPolicy({ cwd, options, flags: { settings: [join(flagDir, 'settings.json')] }, env: {} })
      const read = async (path: string) => (await evaluate(policy, 'Read', { file_path: path })).decision
      expect(await read(join(box.home, '.claude', 'user.txt'))).toBe('deny')
      expect(await read(join(box.home, 'user.txt'))).not.toBe('deny')
      expect(await read(join(flagDir, 'flag.txt'))).toBe('deny')
      expect(await read(join(cwd, 'flag.txt'))).toBe('allow')
    } finally {
      await rm(join(box.home, '.claude'), { recursive: true })
    }
  })
})

describe("managed policy's allowManagedPermissionRulesOnly", () => {
  it('drops the allow, ask and deny rules of every other source, --allowedTools included; the policy\'s own rules apply', async () => {
    const cwd = join(box.root, 'managed-only')
    const managedDir = join(box.root, 'managed-only-policy')
    await mkdir(join(cwd, '.claude'), { recursive: true })
    await mkdir(managedDir, { recursive: true })
    await writeFile(join(cwd, '.claude', 'settings.local.json'), JSON.stringify({ permissions: { allow: ['Bash(touch:*)'], deny: ['Bash(ls:*)'] } }))
    const decide = async (policy: unknown) => {
      await writeFile(join(managedDir, 'managed-settings.json'), JSON.stringify(policy))
      const options = permissionsOptions.parse({ home: box.home, managedDir, trustStore: join(box.modloopHome, 'trusted.json') })
      const loaded = await loadPolicy({ cwd, options, flags: { trustWorkspace: true, allowedTools: ['Bash(mkdir:*)'] }, env: {} })
      const bash = async (command: string) => (await evaluate(loaded, 'Bash', { command })).decision
      return [await bash('touch a'), await bash('mkdir b'), await bash('ls'), await bash('rm c')]
    }
    expect(await decide({ permissions: { allow: ['Bash(rm:*)'] } })).toEqual(['allow', 'allow', 'deny', 'allow'])
    expect(await decide({ allowManagedPermissionRulesOnly: true, permissions: { allow: ['Bash(rm:*)'] } })).toEqual(['ask', 'ask', 'allow', 'allow'])
  })
})
