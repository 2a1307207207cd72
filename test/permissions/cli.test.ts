import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { sandbox, type Sandbox } from './helpers.js'

let box: Sandbox
let workspace: string
beforeAll(async () => {
  box = await sandbox()
  // Nothing here may reach the real home: the trust store and home are the sandbox's.
  vi.stubEnv('MODLOOP_HOME', box.modloopHome)
  workspace = join(box.root, 'workspace')
  await mkdir(join(workspace, '.claude'), { recursive: true })
  await writeFile(join(workspace, 'modloop.config.json'), JSON.stringify({
    mods: ['bash', ['permissions', { home: box.home, trustStore: join(box.modloopHome, 'trusted.json'), managedDir: join(box.root, 'managed') }]],
  }))
  await writeFile(join(workspace, '.claude', 'settings.json'), JSON.stringify({
    permissions: { allow: ['Bash(printf trusted)'], deny: ['Bash(rm *)'], ask: ['Bash(git push *)', 'Bash(npm test'], defaultMode: 'acceptEdits' },
  }))
})
afterAll(async () => {
  vi.unstubAllEnvs()
  await box.remove()
})

const cli = (args: string[], script: unknown = [{ reply: 'unused' }]) =>
  runCli(args, { script, cwd: workspace, env: { MODLOOP_HOME: box.modloopHome, HOME: box.home } })

const twoCalls = [
  { reply: [{ tool_use: { name: 'Bash', input: { command: 'printf trusted' } } }, { tool_use: { name: 'Bash', input: { command: 'rm -f anything' } } }] },
  { reply: 'done' },
]
const results = (r: { requests: { body: any }[] }): string[] => r.requests[1]!.body.messages.at(-1).content.map((b: any) => b.content as string)

describe('workspace trust', () => {
  it('untrusted: the project allow rule and mode are ignored (reported once), the deny rule holds', async () => {
    const r = await cli(['-p', 'go', '--output-format', 'json'], twoCalls)
    const [printf, rm] = results(r)
    expect(printf).toMatch(/requires approval/)
    expect(rm).toMatch(/denied by the rule Bash\(rm \*\)/)
    expect(r.err.match(/this workspace is not trusted/g)).toHaveLength(1)
    expect(r.err).toContain('allow Bash(printf trusted)')
    expect(r.err).toContain('defaultMode acceptEdits')
    expect(r.err).toContain(`modloop trust ${workspace}`)
    expect(JSON.parse(r.out).permission_denials.map((d: any) => d.tool_input.command)).toEqual(['printf trusted', 'rm -f anything'])
  })

  it('--trust-workspace honours them for one run; the deny rule still holds', async () => {
    const r = await cli(['-p', 'go', '--trust-workspace'], twoCalls)
    expect(results(r)).toEqual(['trusted', expect.stringMatching(/denied by the rule Bash\(rm \*\)/)])
    expect(r.err).not.toMatch(/not trusted/)
  })

  it('modloop trust records the workspace; later runs honour its settings', async () => {
    const t = await cli(['trust'])
    expect(t).toMatchObject({ code: 0, out: expect.stringContaining(`trusted ${workspace}`) })
    const store = JSON.parse(await readFile(join(box.modloopHome, 'trusted.json'), 'utf8'))
    expect(Object.keys(store.workspaces)).toEqual([workspace])
    const r = await cli(['-p', 'go'], twoCalls)
    expect(results(r)).toEqual(['trusted', expect.stringMatching(/denied by the rule Bash\(rm \*\)/)])
    expect((await cli(['trust', '--list'])).out).toContain(workspace)
    expect((await cli(['trust', '--revoke'])).code).toBe(0)
    expect(results(await cli(['-p', 'go'], twoCalls))[0]).toMatch(/requires approval/)
  })
})

describe('headless runs', () => {
  it('dontAsk: what would need approval is denied, and reported as a denial', async () => {
    const script = [{ reply: [{ tool_use: { name: 'Bash', input: { command: 'printf x' } } }] }, { reply: 'done' }]
    const r = await cli(['-p', 'go', '--permission-mode', 'dontAsk', '--output-format', 'json'], script)
    expect(results(r)[0]).toMatch(/dontAsk mode/)
    expect(JSON.parse(r.out)).toMatchObject({ subtype: 'success', permission_denials: [{ tool_name: 'Bash', tool_input: { command: 'printf x' } }] })
  })

  it('--allowedTools keeps a rule with spaces whole; --disallowedTools Bash hides the tool', async () => {
    const script = [{ reply: [{ tool_use: { name: 'Bash', input: { command: 'printf "a b"' } } }] }, { reply: 'done' }]
    const allowed = await cli(['-p', 'go', '--allowedTools', 'Bash(printf *),Read'], script)
    expect(results(allowed)).toEqual(['a b'])
    const hidden = await cli(['-p', 'go', '--disallowedTools', 'Bash'], [{ reply: 'ok' }])
    expect((hidden.requests[0]!.body.tools as { name: string }[]).map((t) => t.name)).toEqual(['BashOutput', 'KillShell', 'ExitPlanMode'])
  })

  it('a bad rule and a rule for an unknown tool are warnings naming where they are', async () => {
    const r = await cli(['-p', 'go', '--disallowedTools', 'Frobnicate'], [{ reply: 'ok' }])
    expect(r.code).toBe(0)
    expect(r.err).toContain(`${join(workspace, '.claude', 'settings.json')}: permissions.ask: "Bash(npm test" is not of the form Tool or Tool(specifier)`)
    expect(r.err).toMatch(/the command line: the deny rule "Frobnicate" names Frobnicate, a tool this session does not have/)
  })
})

describe('modloop permissions check', () => {
  it.each([
    [['Bash', '{"command":"rm -rf build"}'], ['decision: deny', 'rule: Bash(rm *) (from {ws}/.claude/settings.json)', 'reason: Permission to use Bash has been denied']],
    [['Bash', '{"command":"git push origin main"}', '--mode', 'bypassPermissions'], ['decision: ask', 'rule: Bash(git push *)']],
    [['Bash', '{"command":"npm test"}'], ['decision: ask', 'rule: (none: no rule matched', 'mode: default', '(not trusted)']],
    [['Bash', '{"command":"printf trusted"}', '--trust-workspace'], ['decision: allow', 'rule: Bash(printf trusted)', 'mode: acceptEdits', '(trusted)']],
    [['Write', `{"file_path":"${'{ws}'}/x.txt","content":""}`, '--mode', 'plan'], ['decision: ask', 'rule: (none: no rule matched', 'reason: plan mode: Write can change files']],
    [['Read', '{"file_path":"/etc/hostname"}', '--mode', 'dontAsk'], ['decision: deny', 'rule: [mode:dontAsk]', 'outside the working directories']],
    [['Read', '{"file_path":"/etc/hostname"}', '--add-dir', '/etc'], ['decision: allow', 'rule: [working-directory]']],
  ])('%j', async (args, expected) => {
    const r = await cli(['permissions', 'check', ...args.map((a) => a.replace('{ws}', workspace))])
    expect(r.code).toBe(0)
    for (const line of expected) expect(r.out).toContain(line.replace('{ws}', workspace))
  })

  it('--json, and a usage error for input that is not JSON', async () => {
    const r = await cli(['permissions', 'check', 'Bash', '{"command":"ls"}', '--json'])
    expect(JSON.parse(r.out)).toMatchObject({ tool: 'Bash', decision: 'allow', rule: '[read-only-command]', mode: 'default', trusted: false })
    const bad = await cli(['permissions', 'check', 'Bash', 'ls'])
    expect(bad.code).toBe(1)
    expect(bad.err).toMatch(/must be a JSON object/)
  })
})

describe('settings that are the user\'s own apply in an untrusted workspace', () => {
  const printf = [{ reply: [{ tool_use: { name: 'Bash', input: { command: 'printf trusted' } } }] }, { reply: 'done' }]

  it('--settings, inline or as a file: its allow rule takes effect', async () => {
    const inline = await cli(['-p', 'go', '--settings', '{"permissions":{"allow":["Bash(printf trusted)"]}}'], printf)
    expect(results(inline)).toEqual(['trusted'])
    const file = join(box.root, 'flag-settings.json')
    await writeFile(file, JSON.stringify({ permissions: { allow: ['Bash(printf *)'], deny: ['Read'] } }))
    const fromFile = await cli(['-p', 'go', '--settings', file], printf)
    expect(results(fromFile)).toEqual(['trusted'])
    // Its deny rule holds as well: a bare-name deny hides the tool.
    expect((fromFile.requests[0]!.body.tools as { name: string }[]).map((t) => t.name)).not.toContain('Read')
    expect(results(await cli(['-p', 'go'], printf))[0]).toMatch(/requires approval/)
  })

  it('--settings naming a file that is not there, or JSON that does not parse, stops the run before any request', async () => {
    const missing = await cli(['-p', 'go', '--settings', 'no-such-settings.json'], printf)
    expect(missing).toMatchObject({ code: 1, requests: [] })
    expect(missing.err).toContain(`--settings: ${join(workspace, 'no-such-settings.json')} cannot be read (ENOENT)`)
    const broken = await cli(['-p', 'go', '--settings', '{"permissions":{"deny":["Bash"]'], printf)
    expect(broken).toMatchObject({ code: 1, requests: [] })
    expect(broken.err).toContain('--settings: the JSON given to --settings is not valid JSON')
  })

  it('--dangerously-skip-permissions runs what would ask; a deny rule still holds', async () => {
    const r = await cli(['-p', 'go', '--dangerously-skip-permissions'], twoCalls)
    expect(results(r)).toEqual(['trusted', expect.stringMatching(/denied by the rule Bash\(rm \*\)/)])
  })

  it('disableBypassPermissionsMode "disable" keeps --dangerously-skip-permissions in default mode', async () => {
    const r = await cli(['-p', 'go', '--output-format', 'json', '--dangerously-skip-permissions', '--settings', '{"permissions":{"disableBypassPermissionsMode":"disable"}}'], twoCalls)
    expect(results(r)[0]).toMatch(/requires approval/)
    expect(JSON.parse(r.out).permission_denials).toHaveLength(2)
    expect(r.err).toContain('<inline --settings>: permissions.disableBypassPermissionsMode is "disable", so bypassPermissions is not entered')
  })

  it('managed policy settings are read, their drop-ins too', async () => {
    const managed = join(box.root, 'managed')
    await mkdir(join(managed, 'managed-settings.d'), { recursive: true })
    await writeFile(join(managed, 'managed-settings.d', '10-printf.json'), JSON.stringify({ permissions: { allow: ['Bash(printf trusted)'] } }))
    try {
      expect(results(await cli(['-p', 'go'], printf))).toEqual(['trusted'])
      await writeFile(join(managed, 'managed-settings.json'), JSON.stringify({ permissions: { deny: ['Bash(printf *)'] } }))
      expect(results(await cli(['-p', 'go'], printf))[0]).toMatch(/denied by the rule Bash\(printf \*\)/)
    } finally {
      await rm(managed, { recursive: true, force: true })
    }
  })

  it('--permission-mode holds over a managed defaultMode', async () => {
    const managed = join(box.root, 'managed')
    await mkdir(managed, { recursive: true })
    await writeFile(join(managed, 'managed-settings.json'), JSON.stringify({ permissions: { defaultMode: 'plan' } }))
    try {
      const touch = [{ reply: [{ tool_use: { name: 'Bash', input: { command: 'touch made-by-mode.txt' } } }] }, { reply: 'done' }]
      const r = await cli(['-p', 'go', '--permission-mode', 'acceptEdits'], touch)
      expect(results(r)).toEqual([expect.not.stringMatching(/approval/)])
      await expect(readFile(join(workspace, 'made-by-mode.txt'), 'utf8')).resolves.toBe('')
    } finally {
      await rm(managed, { recursive: true, force: true })
      await rm(join(workspace, 'made-by-mode.txt'), { force: true })
    }
  })

  it('manual is another name for default, as Claude Code takes it: the flag and a settings defaultMode', async () => {
    const initMode = (out: string) => out.trim().split('\n').map((l) => JSON.parse(l)).find((m) => m.subtype === 'init').permissionMode
    const flagged = await cli(['-p', 'go', '--permission-mode', 'manual', '--output-format', 'stream-json', '--verbose'])
    expect([flagged.code, initMode(flagged.out)]).toEqual([0, 'default'])
    const managed = join(box.root, 'managed')
    await mkdir(managed, { recursive: true })
    await writeFile(join(managed, 'managed-settings.json'), JSON.stringify({ permissions: { defaultMode: 'manual' } }))
    try {
      const set = await cli(['-p', 'go', '--output-format', 'stream-json', '--verbose'])
      expect([set.code, initMode(set.out)]).toEqual([0, 'default'])
      expect(set.err).not.toContain('defaultMode: "manual"')
    } finally {
      await rm(managed, { recursive: true, force: true })
    }
    expect((await cli(['-p', 'go', '--permission-mode', 'careful'])).err).toContain('--permission-mode must be one of')
  })

  it('~/.claude/settings.json, found through the home the environment names', async () => {
    const plain = join(box.root, 'plain')
    const home = join(box.root, 'user-home')
    await mkdir(join(plain, '.claude'), { recursive: true })
    await mkdir(join(home, '.claude'), { recursive: true })
    await writeFile(join(plain, 'modloop.config.json'), JSON.stringify({ mods: ['bash', ['permissions', { managedDir: false }]] }))
    await writeFile(join(plain, '.claude', 'settings.json'), JSON.stringify({ permissions: { allow: ['Bash(printf project)'] } }))
    await writeFile(join(home, '.claude', 'settings.json'), JSON.stringify({ permissions: { allow: ['Bash(printf trusted)'] } }))
    vi.stubEnv('HOME', home)
    vi.stubEnv('CLAUDE_CONFIG_DIR', '')
    try {
      const script = [{ reply: [{ tool_use: { name: 'Bash', input: { command: 'printf trusted' } } }, { tool_use: { name: 'Bash', input: { command: 'printf project' } } }] }, { reply: 'done' }]
      const r = await runCli(['-p', 'go'], { script, cwd: plain, env: { MODLOOP_HOME: box.modloopHome, HOME: home } })
      expect(results(r)).toEqual(['trusted', expect.stringMatching(/requires approval/)])
      expect(r.err).toContain('allow Bash(printf project)')
    } finally {
      vi.stubEnv('HOME', box.home)
    }
  })
})

describe('modloop permissions check runs the PreToolUse hooks first', () => {
  let hooked: string
  beforeAll(async () => {
    hooked = join(box.root, 'hooked')
    await mkdir(join(hooked, '.claude'), { recursive: true })
    await writeFile(join(hooked, 'modloop.config.json'), JSON.stringify({
      mods: ['bash', ['shell-hooks', { home: box.home, managedDir: false }], ['permissions', { home: box.home, managedDir: false }]],
    }))
    const answer = (decision: string) => `printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"${decision}","permissionDecisionReason":"the ${decision} hook says so"}}'`
    await writeFile(join(hooked, '.claude', 'settings.json'), JSON.stringify({
      permissions: { ask: ['Bash(printf asked)'] },
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [{ type: 'command', command: `grep -q 'rm ' && { echo 'no rm here' >&2; exit 2; } || exit 0` }] },
          { matcher: 'Write', hooks: [{ type: 'command', command: answer('ask') }] },
          { matcher: 'Bash', hooks: [{ type: 'command', command: `grep -q printf && ${answer('allow')} || exit 0` }] },
        ],
      },
    }))
  })
  const check = (...args: string[]) => runCli(['permissions', 'check', ...args], { script: [], cwd: hooked, env: { MODLOOP_HOME: box.modloopHome, HOME: box.home } })

  it('a hook that denies decides, and is named', async () => {
    const r = await check('Bash', '{"command":"rm -f x"}')
    expect(r.code).toBe(0)
    expect(r.out).toContain('decision: deny')
    expect(r.out).toContain(`hook: grep -q 'rm ' && { echo 'no rm here' >&2; exit 2; } || exit 0 (Project Settings: ${join(hooked, '.claude', 'settings.json')})`)
    expect(r.out).toContain(`reason: [grep -q 'rm ' && { echo 'no rm here' >&2; exit 2; } || exit 0]: no rm here\nmode:`)
    expect(JSON.parse((await check('Bash', '{"command":"rm -f x"}', '--json')).out)).toMatchObject({ decision: 'deny', hook: { label: 'Project Settings' } })
  })

  it('a hook that asks forces the question over the read-only allowance; a hook allow does not loosen an ask rule', async () => {
    const asked = await check('Write', `{"file_path":"${join(hooked, 'x.txt')}","content":""}`, '--mode', 'acceptEdits', '--trust-workspace')
    expect(asked.out).toContain('decision: ask')
    expect(asked.out).toContain('reason: the ask hook says so')
    const allowed = await check('Bash', '{"command":"printf x"}')
    expect(allowed.out).toContain('decision: allow')
    expect(allowed.out).toMatch(/hook: grep -q printf/)
    const askRule = await check('Bash', '{"command":"printf asked"}')
    expect(askRule.out).toContain('decision: ask')
    expect(askRule.out).toContain('rule: Bash(printf asked)')
    expect(askRule.out).not.toContain('hook:')
  })
})
