import { existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'

const server = { command: process.execPath, args: [fileURLToPath(new URL('../mcp/fixtures/raw-server.mjs', import.meta.url))] }

/** A project with MCP servers in every settings scope: the user's and the project's entry in ~/.claude.json, and .mcp.json. */
function mcpProject() {
  const cwd = mkdtempSync(join(tmpdir(), 'modloop-restricted-mcp-'))
  const home = join(cwd, 'home')
  mkdirSync(home)
  writeFileSync(join(cwd, '.mcp.json'), JSON.stringify({ mcpServers: { proj: server } }))
  writeFileSync(join(home, '.claude.json'), JSON.stringify({ mcpServers: { usr: server }, projects: { [cwd]: { mcpServers: { loc: server } } } }))
  return { cwd, env: { HOME: home, MODLOOP_HOME: join(home, 'modloop') } }
}

const servers = (r: Awaited<ReturnType<typeof runCli>>) =>
  [...new Set((r.requests[0]!.body as { tools: { name: string }[] }).tools.map((t) => t.name).filter((n) => n.startsWith('mcp__')).map((n) => n.split('__')[1]))].sort()

describe('--setting-sources and MCP servers', () => {
  it('picks the scopes whose servers start: none of the files with "", .mcp.json alone with project; --mcp-config ones always', async () => {
    const p = mcpProject()
    const cfg = JSON.stringify({ mcpServers: { cfg: server } })
    const none = await runCli(['-p', 'hi', '--setting-sources', '', '--mcp-config', cfg], { script: [{ reply: 'ok' }], cwd: p.cwd, env: p.env })
    expect(none.code, none.err).toBe(0)
    expect(servers(none)).toEqual(['cfg'])
    const project = await runCli(['-p', 'hi', '--setting-sources', 'project', '--mcp-config', cfg], { script: [{ reply: 'ok' }], cwd: p.cwd, env: p.env })
    expect(servers(project)).toEqual(['cfg', 'proj'])
  })
})

/** A project whose user, project and local settings each set an env value and a UserPromptSubmit hook (sh) that leaves a file; CLAUDE.md says PINEAPPLE. */
function settingsProject() {
  const cwd = mkdtempSync(join(tmpdir(), 'modloop-restricted-'))
  const home = join(cwd, 'home')
  mkdirSync(join(home, '.claude'), { recursive: true })
  mkdirSync(join(cwd, '.claude'))
  const settings = (level: string) => JSON.stringify({ env: { [`FROM_${level}`]: 'yes' }, hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: `touch '${join(cwd, `ran-${level}`)}'` }] }] } })
  writeFileSync(join(home, '.claude', 'settings.json'), settings('user'))
  writeFileSync(join(cwd, '.claude', 'settings.json'), settings('project'))
  writeFileSync(join(cwd, '.claude', 'settings.local.json'), settings('local'))
  writeFileSync(join(cwd, 'flag.json'), settings('flag'))
  writeFileSync(join(cwd, 'CLAUDE.md'), 'Remember PINEAPPLE\n')
  return { cwd, env: { HOME: home, MODLOOP_HOME: join(home, 'modloop') } }
}

const toolNames = (r: Awaited<ReturnType<typeof runCli>>) => (r.requests[0]!.body as { tools: { name: string }[] }).tools.map((t) => t.name)

describe('restricted mode (--restricted, CLAUDE_CODE_RESTRICTED)', () => {
  it('offers no tool that runs commands or code or fetches (Bash, Monitor, WebFetch, CronCreate) unless --tools names it', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'modloop-restricted-'))
    const on = await runCli(['-p', 'hi', '--restricted'], { script: [{ reply: 'ok' }], cwd })
    expect(on.code, on.err).toBe(0)
    expect(toolNames(on)).toEqual(expect.arrayContaining(['Read', 'Write', 'Edit', 'NotebookEdit', 'Glob', 'Grep', 'Agent', 'CronList', 'CronDelete', 'WebSearch']))
    expect(toolNames(on).filter((n) => ['Bash', 'Monitor', 'WebFetch', 'CronCreate'].includes(n))).toEqual([])
    const env = await runCli(['-p', 'hi'], { script: [{ reply: 'ok' }], cwd, env: { CLAUDE_CODE_RESTRICTED: '1' } })
    expect(toolNames(env)).toEqual(toolNames(on))
    const named = await runCli(['-p', 'hi', '--restricted', '--tools', 'Bash,Read'], { script: [{ reply: 'ok' }], cwd })
    expect(toolNames(named).sort()).toEqual(['Bash', 'Read'])
  })

  it('reads no user, project or local settings file, nor CLAUDE.md or the auto memory; --settings still applies', async () => {
    const p = settingsProject()
    const echo = [{ reply: [{ tool_use: { name: 'Bash', input: { command: 'echo "u=$FROM_user p=$FROM_project l=$FROM_local f=$FROM_flag"' } } }] }, { reply: 'done' }]
    const r = await runCli(['-p', 'hi', '--restricted', '--tools', 'Bash', '--allowedTools', 'Bash', '--settings', join(p.cwd, 'flag.json')], { script: echo, cwd: p.cwd, env: p.env })
    expect(r.code, r.err).toBe(0)
    expect(JSON.stringify(r.requests[1]!.body)).toContain('u= p= l= f=yes')
    expect(JSON.stringify(r.requests[0]!.body)).not.toContain('PINEAPPLE')
    // Nor the auto memory, whose folder lies outside the working directory.
    expect(JSON.stringify(r.requests[0]!.body)).not.toContain(join(p.env.MODLOOP_HOME, 'projects'))
    expect(['user', 'project', 'local', 'flag'].filter((level) => existsSync(join(p.cwd, `ran-${level}`)))).toEqual(['flag'])
  })

  it('refuses bypassPermissions, however asked for, with exit 1 before any request', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'modloop-restricted-'))
    for (const flags of [['--permission-mode', 'bypassPermissions'], ['--dangerously-skip-permissions'], ['--allow-dangerously-skip-permissions']]) {
      const r = await runCli(['-p', 'hi', '--restricted', ...flags], { script: [{ reply: 'ok' }], cwd })
      expect(r.code, flags.join(' ')).toBe(1)
      expect(r.err).toContain('bypassPermissions not supported in restricted mode')
      expect(r.requests).toEqual([])
    }
  })

  it('does not enter bypassPermissions when --settings asks for it: the session runs in default mode', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'modloop-restricted-'))
    const write = [{ reply: [{ tool_use: { name: 'Write', input: { file_path: join(cwd, 'w.txt'), content: 'w' } } }] }, { reply: 'done' }]
    const r = await runCli(['-p', 'hi', '--restricted', '--settings', '{"permissions":{"defaultMode":"bypassPermissions"}}'], { script: write, cwd })
    expect(r.code, r.err).toBe(0)
    expect(r.err).toContain('bypassPermissions is not entered')
    expect(existsSync(join(cwd, 'w.txt'))).toBe(false)
  })

  it('confines the file tools to the working directories (--add-dir included), whatever an allow rule or acceptEdits says', async () => {
    const root = mkdtempSync(join(tmpdir(), 'modloop-restricted-'))
    const [cwd, added, outside] = [join(root, 'work'), join(root, 'added'), join(root, 'outside')] as const
    for (const d of [cwd, added, outside]) mkdirSync(d)
    writeFileSync(join(outside, 'o.txt'), 'OUTSIDE\n')
    writeFileSync(join(added, 'a.txt'), 'ADDED\n')
    symlinkSync(outside, join(cwd, 'link'))
    const calls = [
      { name: 'Read', input: { file_path: join(outside, 'o.txt') } },
      { name: 'Read', input: { file_path: join(cwd, 'link', 'o.txt') } },
      { name: 'Grep', input: { pattern: 'OUT', path: outside } },
      { name: 'Write', input: { file_path: join(outside, 'w.txt'), content: 'w' } },
      { name: 'Read', input: { file_path: join(added, 'a.txt') } },
      { name: 'Write', input: { file_path: join(cwd, 'w.txt'), content: 'w' } },
    ]
    const script = [{ reply: calls.map((tool_use) => ({ tool_use })) }, { reply: 'done' }]
    const r = await runCli(['-p', 'hi', '--restricted', '--permission-mode', 'acceptEdits', '--add-dir', added, '--allowedTools', 'Read', 'Write', '--output-format', 'json'], { script, cwd })
    expect(r.code, r.err).toBe(0)
    const results = (r.requests[1]!.body as { messages: { content: unknown }[] }).messages.at(-1)!.content as { content: unknown; is_error?: boolean }[]
    const texts = results.map((b) => (typeof b.content === 'string' ? b.content : JSON.stringify(b.content)))
    const rule = '; --restricted confines the file tools to the working directory.'
    const dirs = `${cwd}, ${added}`
    expect(texts.slice(0, 4)).toEqual([
      `${join(outside, 'o.txt')} is outside ${dirs}${rule}`,
      `${join(cwd, 'link', 'o.txt')} resolves through a symlink to ${join(outside, 'o.txt')}, which is outside ${dirs}${rule}`,
      `${outside} is outside ${dirs}${rule}`,
      `${join(outside, 'w.txt')} is outside ${dirs}${rule}`,
    ])
    expect(results.map((b) => b.is_error === true)).toEqual([true, true, true, true, false, false])
    expect(texts[4]).toContain('ADDED')
    expect([existsSync(join(outside, 'w.txt')), existsSync(join(cwd, 'w.txt'))]).toEqual([false, true])
    expect(JSON.parse(r.out).permission_denials).toHaveLength(4)
  })

  it('in auto mode, leaves a write to a settings or git file to the person: the classifier is not asked', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'modloop-restricted-'))
    mkdirSync(join(cwd, '.git'))
    const allow = { reply: JSON.stringify({ decision: 'allow', reason: 'fine' }), model: 'claude-haiku-4-5' }
    const script = [{ reply: [{ tool_use: { name: 'Write', input: { file_path: join(cwd, '.git', 'config'), content: 'x' } } }] }, allow, { reply: 'done' }]
    const r = await runCli(['-p', 'hi', '--restricted', '--permission-mode', 'auto', '--output-format', 'json'], { script, cwd })
    expect(r.code, r.err).toBe(0)
    expect(existsSync(join(cwd, '.git', 'config'))).toBe(false)
    expect(r.requests.map((q) => (q.body as { model: string }).model)).not.toContain('claude-haiku-4-5')
    expect(JSON.parse(r.out).permission_denials).toHaveLength(1)
  })
})
