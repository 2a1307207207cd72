import { mkdtemp, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli, type CliRun } from '../helpers/cli.js'
import { systemText } from '../helpers/system-text.js'
import { writeToolsPlugin, writeTree } from './fixture.js'
import { mcpOptions } from '../../mods/mcp/options.js'
import { collectServers } from '../../mods/mcp/sources.js'

let dir: string
let project: string
const env = () => ({ HOME: join(dir, 'home'), CLAUDE_CONFIG_DIR: '', MODLOOP_HOME: join(dir, 'modloop-home') })
const initOf = (out: string) => out.trim().split('\n').map((l) => JSON.parse(l)).find((m) => m.subtype === 'init')
const bodyOf = (r: CliRun, i = 0) => r.requests[i]!.body as { messages: { content: unknown }[]; system?: unknown }
const hook = (text: string) => ({ hooks: [{ type: 'command', command: `printf '%s' "${text} from $(basename \${CLAUDE_PLUGIN_ROOT})"` }] })

beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-manifest-')))
  project = join(dir, 'project')
  await writeTree(project, { 'README.md': 'a project\n' })
})
afterAll(() => rm(dir, { recursive: true, force: true }))

describe("a manifest's component paths", () => {
  let plugin: string
  let run: CliRun
  beforeAll(async () => {
    plugin = join(dir, 'tools')
    await writeToolsPlugin(plugin, {
      '.claude-plugin/plugin.json': JSON.stringify({
        name: 'tools', version: '2.0.0',
        // commands keeps the default directory by listing it; agents and skills replace theirs.
        commands: ['./commands/', './extra/ship.md'],
        agents: './custom-agents/',
        skills: ['./more-skills/release-notes'],
        hooks: ['./config/hooks.json', { UserPromptSubmit: [hook('inline hook')] }],
        mcpServers: { inline: { command: 'node', args: ['${CLAUDE_PLUGIN_ROOT}/inline.mjs'] } },
      }),
      'extra/ship.md': '---\ndescription: Ship it\n---\nShip $ARGUMENTS from ${CLAUDE_PLUGIN_ROOT}\n',
      'custom-agents/auditor.md': '---\nname: auditor\ndescription: Audits a change\n---\nYou audit changes.\n',
      'more-skills/release-notes/SKILL.md': '---\ndescription: Write release notes\n---\nWrite the notes.\n',
      'config/hooks.json': JSON.stringify({ hooks: { UserPromptSubmit: [hook('file hook')] } }),
    })
    run = await runCli(['-p', '/tools:ship v2', '--plugin-dir', plugin, '--output-format', 'stream-json', '--verbose'], { script: [{ reply: 'shipped' }], cwd: project, env: env() })
  })

  it('commands: the listed directory and file both load, named plugin:name, ${CLAUDE_PLUGIN_ROOT} filled in', () => {
    expect(run.err).not.toMatch(/MODLOOP_ERR|warning/i)
    expect(run.code).toBe(0)
    const init = initOf(run.out)
    expect(init.slash_commands).toEqual(expect.arrayContaining(['tools:deploy', 'tools:ship']))
    expect(JSON.stringify(bodyOf(run).messages)).toContain(`Ship v2 from ${plugin}`)
  })

  it('agents and skills: the manifest paths replace the default directories, as Claude Code reads them', () => {
    const init = initOf(run.out)
    expect(init.agents).toContain('tools:auditor')
    expect(init.agents).not.toContain('tools:reviewer')
    expect(init.skills).toEqual(['tools:release-notes'])
  })

  it('hooks: a hooks file and inline hooks from the manifest run beside hooks/hooks.json, with CLAUDE_PLUGIN_ROOT set', () => {
    const sent = JSON.stringify(bodyOf(run).messages)
    expect(sent).toContain('file hook from tools')
    expect(sent).toContain('inline hook from tools')
  })

  it('mcpServers: inline servers and a servers file join .mcp.json, ${CLAUDE_PLUGIN_ROOT} filled in', async () => {
    await writeTree(plugin, {
      '.mcp.json': JSON.stringify({ mcpServers: { notes: { command: 'node', args: ['notes.mjs'] } } }),
      'config/mcp.json': JSON.stringify({ mcpServers: { fromFile: { command: 'node', args: ['${CLAUDE_PLUGIN_ROOT}/file.mjs'] } } }),
    })
    const { readPluginDir } = await import('../../mods/_shared/plugin-format/read-plugin.js')
    const manifest = JSON.parse(JSON.stringify({ name: 'tools', mcpServers: ['./config/mcp.json', { inline: { command: 'node', args: ['${CLAUDE_PLUGIN_ROOT}/inline.mjs'] } }] }))
    await writeTree(plugin, { '.claude-plugin/plugin.json': JSON.stringify(manifest) })
    const read = await readPluginDir(plugin)
    expect(read.warnings).toEqual([])
    const { servers, warnings } = await collectServers({
      cwd: project, options: mcpOptions.parse({ home: join(dir, 'home') }), flags: {}, env: () => undefined,
      projectTrust: async () => ({ trusted: true }), plugins: [{ name: 'tools', root: plugin, paths: read.paths }],
    })
    expect(warnings).toEqual([])
    const byName = Object.fromEntries(servers.map((s) => [s.name, s]))
    expect(Object.keys(byName).sort()).toEqual(['plugin:tools:fromFile', 'plugin:tools:inline', 'plugin:tools:notes'])
    expect(byName['plugin:tools:fromFile']!.config).toMatchObject({ args: [`${plugin}/file.mjs`] })
    expect(byName['plugin:tools:inline']!.config).toMatchObject({ args: [`${plugin}/inline.mjs`] })
    expect(byName['plugin:tools:inline']!.origin).toContain('plugin.json (mcpServers[1])')
  })
})

describe('a bad manifest field', () => {
  it('is a warning naming the plugin, the manifest and the field; the rest of the plugin loads', async () => {
    const plugin = join(dir, 'broken')
    await writeToolsPlugin(plugin, {
      '.claude-plugin/plugin.json': JSON.stringify({
        name: 'tools', commands: 5, agents: './../elsewhere', skills: 'skills', outputStyles: ['./styles/missing.md'], hooks: [true],
      }),
    })
    const manifest = join(plugin, '.claude-plugin', 'plugin.json')
    const r = await runCli(['-p', '/tools:deploy api', '--plugin-dir', plugin, '--output-format', 'stream-json', '--verbose'], { script: [{ reply: 'ok' }], cwd: project, env: env() })
    expect(r.code).toBe(0)
    for (const field of ['"commands"', '"agents"', '"skills"', '"outputStyles[0]"', '"hooks']) {
      expect(r.err).toContain(`plugin tools: ${manifest}: ${field}`)
    }
    expect(r.err).toContain('must be relative to the plugin root and start with "./"')
    expect(r.err).toContain('lies outside the plugin directory')
    // The fields that could not be read leave the default directories in force.
    expect(JSON.stringify(bodyOf(r).messages)).toContain(`Deploy api with ${plugin}/scripts/deploy.sh`)
    const init = initOf(r.out)
    expect(init.agents).toContain('tools:reviewer')
    expect(init.skills).toEqual(['tools:changelog'])
    expect(systemText(bodyOf(r))).not.toContain('MODLOOP_ERR')
  })

  it('a manifest without a name still fails the plugin, naming the file', async () => {
    const plugin = join(dir, 'nameless')
    await writeTree(plugin, { '.claude-plugin/plugin.json': JSON.stringify({ commands: './commands/' }), 'commands/a.md': 'A\n' })
    const r = await runCli(['-p', 'hi', '--plugin-dir', plugin], { script: [{ reply: 'ok' }], cwd: project, env: env() })
    expect(r.err).toContain('MODLOOP_ERR_PLUGIN')
    expect(r.err).toContain(join(plugin, '.claude-plugin', 'plugin.json'))
  })
})
