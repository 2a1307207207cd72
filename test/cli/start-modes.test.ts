import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'

/** A project with a CLAUDE.md, a skill and a settings UserPromptSubmit hook (sh) that leaves a file when it runs. */
function project() {
  const cwd = mkdtempSync(join(tmpdir(), 'modloop-bare-'))
  const ran = join(cwd, 'hook-ran')
  writeFileSync(join(cwd, 'CLAUDE.md'), 'Remember PINEAPPLE\n')
  mkdirSync(join(cwd, '.claude'))
  const hook = { hooks: [{ type: 'command', command: `echo ran > '${ran}'` }] }
  writeFileSync(join(cwd, '.claude', 'settings.json'), JSON.stringify({ hooks: { UserPromptSubmit: [hook] }, env: { FROM_SETTINGS: 'kept' } }))
  mkdirSync(join(cwd, '.claude', 'skills', 'tidy'), { recursive: true })
  writeFileSync(join(cwd, '.claude', 'skills', 'tidy', 'SKILL.md'), '---\nname: tidy\ndescription: tidies MANGO\n---\nTidy up.\n')
  return { cwd, ran, env: { HOME: cwd, MODLOOP_HOME: join(cwd, 'home') } }
}

const mcpServer = (name: string) => JSON.stringify({ mcpServers: { [name]: { command: process.execPath, args: [fileURLToPath(new URL('../mcp/fixtures/raw-server.mjs', import.meta.url))] } } })
const bashEcho = [{ reply: [{ tool_use: { name: 'Bash', input: { command: 'echo SIMPLE=$CLAUDE_CODE_SIMPLE env=$FROM_SETTINGS' } } }] }, { reply: 'done' }]
const body = (r: Awaited<ReturnType<typeof runCli>>, i = 0) => r.requests[i]!.body as { tools: { name: string }[]; system: { text: string }[]; messages: unknown[] }

describe('minimal mode (--bare, CLAUDE_CODE_SIMPLE)', () => {
  it('--bare offers Bash, Edit and Read, a system prompt of the intro, CWD and Date, no CLAUDE.md, no hooks; commands see CLAUDE_CODE_SIMPLE=1 and the settings env', async () => {
    const p = project()
    const r = await runCli(['-p', 'hi', '--bare', '--trust-workspace', '--allowedTools', 'Bash'], { script: bashEcho, cwd: p.cwd, env: p.env })
    expect(r.code, r.err).toBe(0)
    const first = body(r)
    expect(first.tools.map((t) => t.name)).toEqual(['Bash', 'Edit', 'Read'])
    expect(first.system.map((s) => s.text.trim())).toEqual([expect.stringMatching(/^You are an agent running in modloop\./), expect.stringMatching(new RegExp(`^CWD: ${p.cwd}\\nDate: \\d{4}-\\d{2}-\\d{2}$`))])
    expect(JSON.stringify(first.messages)).not.toContain('PINEAPPLE')
    expect(existsSync(p.ran)).toBe(false)
    // The settings' env still applies, as in Claude Code.
    expect(JSON.stringify(body(r, 1).messages.at(-1))).toContain('SIMPLE=1 env=kept')
  })

  it('CLAUDE_CODE_SIMPLE=true is the same minimal mode; 0 is not', async () => {
    const p = project()
    const on = await runCli(['-p', 'hi'], { script: [{ reply: 'ok' }], cwd: p.cwd, env: { ...p.env, CLAUDE_CODE_SIMPLE: 'true' } })
    expect(on.code, on.err).toBe(0)
    expect(body(on).tools.map((t) => t.name)).toEqual(['Bash', 'Edit', 'Read'])
    expect(existsSync(p.ran)).toBe(false)
    const off = await runCli(['-p', 'hi'], { script: [{ reply: 'ok' }], cwd: p.cwd, env: { ...p.env, CLAUDE_CODE_SIMPLE: '0' } })
    expect(off.code, off.err).toBe(0)
    expect(body(off).tools.map((t) => t.name)).toContain('Write')
    expect(JSON.stringify(body(off).messages)).toContain('PINEAPPLE')
    expect(existsSync(p.ran)).toBe(true)
  })
})

describe('safe mode (--safe-mode, CLAUDE_CODE_SAFE_MODE)', () => {
  it('keeps the built-in tools and git context but loads no CLAUDE.md, skills, settings hooks or --plugin-dir plugins', async () => {
    const p = project()
    const plugin = join(p.cwd, 'plug')
    const pluginRan = join(p.cwd, 'plugin-hook-ran')
    mkdirSync(join(plugin, '.claude-plugin'), { recursive: true })
    mkdirSync(join(plugin, 'hooks'))
    writeFileSync(join(plugin, '.claude-plugin', 'plugin.json'), '{"name":"plug"}')
    writeFileSync(join(plugin, 'hooks', 'hooks.json'), JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: `echo ran > '${pluginRan}'` }] }] } }))
    for (const [args, env] of [[['--safe-mode', '--plugin-dir', plugin], {}], [['--plugin-dir', plugin], { CLAUDE_CODE_SAFE_MODE: '1' }]] as const) {
      const r = await runCli(['-p', 'hi', ...args], { script: [{ reply: 'ok' }], cwd: p.cwd, env: { ...p.env, ...env } })
      expect(r.code, r.err).toBe(0)
      expect(body(r).tools.map((t) => t.name)).toEqual(expect.arrayContaining(['Bash', 'Write', 'Glob', 'Agent']))
      const sent = JSON.stringify(body(r))
      expect(sent).not.toContain('PINEAPPLE')
      expect(sent).not.toContain('MANGO')
      expect(existsSync(p.ran)).toBe(false)
      expect(existsSync(pluginRan)).toBe(false)
    }
    const full = await runCli(['-p', 'hi', '--plugin-dir', plugin], { script: [{ reply: 'ok' }], cwd: p.cwd, env: p.env })
    expect(JSON.stringify(body(full))).toContain('MANGO')
    expect([existsSync(p.ran), existsSync(pluginRan)]).toEqual([true, true])
  })
})

describe('MCP servers in minimal mode', () => {
  it('come from --mcp-config only: the project .mcp.json is not read', async () => {
    const p = project()
    writeFileSync(join(p.cwd, '.mcp.json'), mcpServer('proj'))
    const r = await runCli(['-p', 'hi', '--bare', '--mcp-config', mcpServer('cfg')], { script: [{ reply: 'ok' }], cwd: p.cwd, env: p.env })
    expect(r.code, r.err).toBe(0)
    const names = body(r).tools.map((t) => t.name)
    expect(names).toContain('mcp__cfg__pid')
    expect(names.filter((n) => n.startsWith('mcp__proj__'))).toEqual([])
  })
})
