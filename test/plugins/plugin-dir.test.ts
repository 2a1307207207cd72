import { systemText } from '../helpers/system-text.js'
import { existsSync } from 'node:fs'
import { mkdtemp, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { writeToolsPlugin, writeTree } from './fixture.js'
import { mcpOptions } from '../../mods/mcp/options.js'
import { collectServers } from '../../mods/mcp/sources.js'
import { FIXTURE } from '../mcp/helpers.js'

let dir: string
let project: string
let plugin: string
beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-plugin-')))
  project = join(dir, 'project')
  plugin = join(dir, 'tools-plugin')
  await writeTree(project, { 'README.md': 'a project\n' })
})
afterEach(() => rm(dir, { recursive: true, force: true }))

const env = () => ({ HOME: join(dir, 'home'), CLAUDE_CONFIG_DIR: '', MODLOOP_HOME: join(dir, 'modloop-home') })
const initOf = (out: string) => out.trim().split('\n').map((l) => JSON.parse(l)).find((m) => m.subtype === 'init')
// The body a command renders, after the header naming the command.
const bodyText = (r: { requests: { body: unknown }[] }) => (r.requests[0]!.body as any).messages[0].content[1].text as string

describe('a plugin with commands, a skill and an agent and no hooks, from --plugin-dir', () => {
  it('loads, and /tools:deploy expands with ${CLAUDE_PLUGIN_ROOT} filled in', async () => {
    await writeToolsPlugin(plugin)
    const r = await runCli(['-p', '/tools:deploy api', '--plugin-dir', plugin, '--output-format', 'stream-json', '--verbose'], { script: [{ reply: 'deployed' }], cwd: project, env: env() })
    expect(r.err).not.toContain('MODLOOP_ERR')
    expect(r.code).toBe(0)
    expect(bodyText(r)).toBe(`Deploy api with ${plugin}/scripts/deploy.sh`)
    const init = initOf(r.out)
    expect(init.plugins).toEqual([{ name: 'tools', path: plugin, source: 'tools@inline', version: '1.2.3' }])
    expect(init.slash_commands).toEqual(expect.arrayContaining(['tools:deploy', 'tools:changelog']))
    expect(init.skills).toEqual(['tools:changelog'])
    expect(init.agents).toEqual(expect.arrayContaining(['general-purpose', 'tools:reviewer']))
  })

  it('a plugin whose manifest is not JSON is named in init\'s plugin_errors; the others load (spec §2.2)', async () => {
    await writeToolsPlugin(plugin)
    const bad = join(dir, 'bad-plugin')
    await writeTree(bad, { '.claude-plugin/plugin.json': '{"name": "bad",' })
    const r = await runCli(['-p', 'hi', '--plugin-dir', plugin, '--plugin-dir', bad, '--output-format', 'stream-json', '--verbose'], { script: [{ reply: 'ok' }], cwd: project, env: env() })
    const init = initOf(r.out)
    expect(init.plugins.map((p: { name: string }) => p.name)).toEqual(['tools'])
    expect(init.plugin_errors).toEqual([{ plugin: 'bad-plugin', type: 'generic-error', message: expect.stringContaining(join(bad, '.claude-plugin', 'plugin.json')), path: bad }])
  })

  it('CLAUDE_CODE_PLUGIN_DIRS loads it as --plugin-dir does (once when both name it); a directory that is no plugin is bad usage naming the variable', async () => {
    await writeToolsPlugin(plugin)
    const r = await runCli(['-p', '/tools:deploy api', '--output-format', 'stream-json', '--verbose'], { script: [{ reply: 'deployed' }], cwd: project, env: { ...env(), CLAUDE_CODE_PLUGIN_DIRS: `${plugin}:` } })
    expect(r.code).toBe(0)
    expect(bodyText(r)).toBe(`Deploy api with ${plugin}/scripts/deploy.sh`)
    const both = await runCli(['-p', 'hi', '--plugin-dir', plugin, '--output-format', 'stream-json', '--verbose'], { script: [{ reply: 'ok' }], cwd: project, env: { ...env(), CLAUDE_CODE_PLUGIN_DIRS: plugin } })
    expect(initOf(both.out).plugins).toEqual([{ name: 'tools', path: plugin, source: 'tools@inline', version: '1.2.3' }])
    const bad = await runCli(['-p', 'hi'], { script: [], cwd: project, env: { ...env(), CLAUDE_CODE_PLUGIN_DIRS: project } })
    expect(bad.code).toBe(1)
    expect(bad.err).toContain(`CLAUDE_CODE_PLUGIN_DIRS: ${project}: ${project} holds no .claude-plugin/plugin.json`)
  })

  it('its command is reachable unprefixed while no other command has that name', async () => {
    await writeToolsPlugin(plugin)
    const r = await runCli(['-p', '/deploy web', '--plugin-dir', plugin], { script: [{ reply: 'ok' }], cwd: project, env: env() })
    expect(bodyText(r)).toBe(`Deploy web with ${plugin}/scripts/deploy.sh`)
    // A project command of the same name takes the short name; the plugin's keeps its prefix.
    await writeTree(project, { '.claude/commands/deploy.md': 'Project deploy $ARGUMENTS\n' })
    const mine = await runCli(['-p', '/deploy web', '--plugin-dir', plugin], { script: [{ reply: 'ok' }], cwd: project, env: env() })
    expect(bodyText(mine)).toBe('Project deploy web')
  })

  it('the Agent tool starts its agent by plugin:name', async () => {
    await writeToolsPlugin(plugin)
    const script = [
      { reply: [{ tool_use: { name: 'Agent', input: { description: 'review', prompt: 'review it', subagent_type: 'tools:reviewer', run_in_background: false } } }] },
      { reply: 'looks fine' },
      { reply: 'the reviewer says it looks fine' },
    ]
    const r = await runCli(['-p', 'review', '--plugin-dir', plugin], { script, cwd: project, env: env() })
    expect(r.code).toBe(0)
    expect(systemText(r.requests[1]!.body as { system?: unknown })).toContain('You review changes.')
  })

  it('its skill and its agent are reachable by their short names too', async () => {
    await writeToolsPlugin(plugin)
    const skill = await runCli(['-p', '/changelog', '--plugin-dir', plugin], { script: [{ reply: 'ok' }], cwd: project, env: env() })
    expect(bodyText(skill)).toContain('Read the commits and write the entry.')
    const script = [
      { reply: [{ tool_use: { name: 'Agent', input: { description: 'review', prompt: 'review it', subagent_type: 'reviewer', run_in_background: false } } }] },
      { reply: 'looks fine' },
      { reply: 'done' },
    ]
    const agent = await runCli(['-p', 'review', '--plugin-dir', plugin], { script, cwd: project, env: env() })
    expect(systemText(agent.requests[1]!.body as { system?: unknown })).toContain('You review changes.')
  })

  it('a command body gets ${CLAUDE_PLUGIN_DATA}, the data directory its hooks get, made before its ! lines run', async () => {
    await writeToolsPlugin(plugin, { 'commands/stash.md': '---\ndescription: Stash\nallowed-tools: Bash(ls:*)\n---\nData: ${CLAUDE_PLUGIN_DATA}\n!`ls -d ${CLAUDE_PLUGIN_DATA}`\n' })
    const r = await runCli(['-p', '/tools:stash', '--plugin-dir', plugin], { script: [{ reply: 'ok' }], cwd: project, env: env() })
    const data = join(dir, 'home', '.claude', 'plugins', 'data', 'tools-inline')
    expect(bodyText(r)).toBe(`Data: ${data}\n${data}`)
  })

  it('the Skill tool takes the skill by its short name as /name does', async () => {
    await writeToolsPlugin(plugin)
    const script = [{ reply: [{ tool_use: { name: 'Skill', input: { skill: 'changelog' } } }] }, { reply: 'done' }]
    const r = await runCli(['-p', 'write the changelog', '--plugin-dir', plugin, '--allowedTools', 'Skill'], { script, cwd: project, env: env() })
    const [result, text] = (r.requests[1]!.body as any).messages[2].content
    expect(result.is_error).toBeUndefined()
    expect(result.content).toBe('Launching skill: changelog')
    expect(text.text).toContain('Read the commits and write the entry.')
  })

  it('a skill that only adds instructions runs unasked; one with allowed-tools or hooks asks first', async () => {
    await writeToolsPlugin(plugin, {
      'skills/fast/SKILL.md': '---\nname: fast\ndescription: Be fast\nmodel: haiku\nallowed-tools: Bash(echo *)\n---\nBe fast.\n',
      'skills/hooked/SKILL.md': '---\nname: hooked\ndescription: Hooked\nhooks:\n  Stop:\n    - hooks:\n        - type: command\n          command: "true"\n---\nHooked.\n',
    })
    const skill = (name: string) => ({ tool_use: { name: 'Skill', input: { skill: name } } })
    const script = [{ reply: [skill('changelog'), skill('tools:fast'), skill('hooked')] }, { reply: 'done' }]
    const r = await runCli(['-p', 'write the changelog', '--plugin-dir', plugin], { script, cwd: project, env: env() })
    const [changelog, fast, hooked] = (r.requests[1]!.body as any).messages[2].content
    expect(changelog).toEqual({ type: 'tool_result', tool_use_id: expect.any(String), content: 'Launching skill: changelog' })
    expect(fast).toMatchObject({ is_error: true, content: expect.stringContaining('requires approval') })
    expect(hooked).toMatchObject({ is_error: true, content: expect.stringContaining('requires approval') })
  })

  it('a broken file inside the plugin is a warning naming it; the rest loads', async () => {
    await writeToolsPlugin(plugin, { 'hooks/hooks.json': '{ not json', 'agents/broken.md': 'no frontmatter here\n' })
    const r = await runCli(['-p', '/tools:deploy api', '--plugin-dir', plugin], { script: [{ reply: 'ok' }], cwd: project, env: env() })
    expect(r.code).toBe(0)
    expect(r.err).toContain(join(plugin, 'hooks', 'hooks.json'))
    expect(r.err).toContain(join(plugin, 'agents', 'broken.md'))
    expect(bodyText(r)).toContain('Deploy api')
  })

  it('a directory that is no plugin is bad usage naming it', async () => {
    const r = await runCli(['-p', 'hi', '--plugin-dir', project], { script: [], cwd: project, env: env() })
    expect(r.code).toBe(1)
    expect(r.err).toContain('.claude-plugin/plugin.json')
  })
})

describe('the other ways a plugin loads whole', () => {
  it('--mod DIR and a config\'s mods', async () => {
    await writeToolsPlugin(plugin)
    const viaMod = await runCli(['-p', '/tools:deploy a', '--mod', plugin], { script: [{ reply: 'ok' }], cwd: project, env: env() })
    expect(bodyText(viaMod)).toContain('Deploy a with')
    await writeTree(project, { 'modloop.config.json': JSON.stringify({ extends: 'modloop', mods: [plugin] }) })
    const viaConfig = await runCli(['-p', '/tools:deploy b'], { script: [{ reply: 'ok' }], cwd: project, env: env() })
    expect(viaConfig.err).not.toContain('MODLOOP_ERR')
    expect(bodyText(viaConfig)).toContain('Deploy b with')
  })

  it("query({ options: { plugins: [{ type: 'local', path }] } })", async () => {
    await writeToolsPlugin(plugin)
    const { query } = await import('../../index.js')
    const messages: any[] = []
    for await (const m of query({ prompt: '/tools:deploy c', options: { cwd: project, env: env(), script: [{ reply: 'ok' }], plugins: [{ type: 'local', path: plugin }] } })) messages.push(m)
    expect(messages.find((m) => m.subtype === 'init')?.plugins).toEqual([{ name: 'tools', path: plugin, source: 'tools@inline', version: '1.2.3' }])
    expect(messages.at(-1)).toMatchObject({ subtype: 'success', result: 'ok' })
  })
})

describe('the review commands take --plugin-dir', () => {
  it('mods list names the plugin and its hooks; hooks list lists its hooks with their source', async () => {
    await writeToolsPlugin(plugin, { 'hooks/hooks.json': JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo stop' }] }] } }) })
    const mods = await runCli(['mods', 'list', '--plugin-dir', plugin], { script: [], cwd: project, env: env() })
    expect(mods.code).toBe(0)
    expect(mods.out).toContain(`plugin tools 1.2.3 from ${plugin}`)
    expect(mods.out).toContain(`settings hooks from ${join(plugin, 'hooks', 'hooks.json')}: Stop`)
    const json = await runCli(['mods', 'list', '--json', '--plugin-dir', plugin], { script: [], cwd: project, env: env() })
    expect(JSON.parse(json.out).plugins).toEqual([{ name: 'tools', path: plugin, version: '1.2.3' }])
    const hooks = await runCli(['hooks', 'list', '--plugin-dir', plugin], { script: [], cwd: project, env: env() })
    expect(hooks.code).toBe(0)
    expect(hooks.out).toMatch(new RegExp(`Stop .*echo stop .*Plugin Hooks: ${join(plugin, 'hooks', 'hooks.json')}`))
  })
})

describe('a plugin\'s MCP servers', () => {
  it('.mcp.json is read with ${CLAUDE_PLUGIN_ROOT} filled in, and the session lists its server as plugin:<plugin>:<server>', async () => {
    await writeToolsPlugin(plugin, { '.mcp.json': JSON.stringify({ mcpServers: { notes: { command: 'node', args: ['${CLAUDE_PLUGIN_ROOT}/server.mjs'] } } }) })
    const { servers, warnings } = await collectServers({
      cwd: project, options: mcpOptions.parse({ home: join(dir, 'home') }), flags: {}, env: () => undefined,
      projectTrust: async () => ({ trusted: true }), plugins: [{ name: 'tools', root: plugin }],
    })
    expect(warnings).toEqual([])
    expect(servers).toEqual([expect.objectContaining({ name: 'plugin:tools:notes', scope: 'plugin', config: expect.objectContaining({ args: [`${plugin}/server.mjs`] }) })])
    const { query } = await import('../../index.js')
    const messages: any[] = []
    for await (const m of query({ prompt: 'hi', options: { cwd: project, env: env(), script: [{ reply: 'ok' }], plugins: [{ type: 'local', path: plugin }] } })) messages.push(m)
    expect(messages.find((m) => m.subtype === 'init').mcp_servers.map((s: { name: string }) => s.name)).toContain('plugin:tools:notes')
  })
  it('a server gets ${CLAUDE_PLUGIN_DATA} filled in and CLAUDE_PLUGIN_ROOT and CLAUDE_PLUGIN_DATA in its environment, as in Claude Code', async () => {
    await writeToolsPlugin(plugin, { '.mcp.json': JSON.stringify({ mcpServers: { notes: { command: process.execPath, args: [FIXTURE, '${CLAUDE_PLUGIN_DATA}/notes.db'], env: { FIXTURE_SECRET: '${CLAUDE_PLUGIN_ROOT}' } } } }) })
    const script = [{ reply: [{ tool_use: { name: 'mcp__plugin_tools_notes__whoami', input: {} } }] }, { reply: 'done' }]
    const r = await runCli(['-p', 'who', '--plugin-dir', plugin, '--allowedTools', 'mcp__plugin_tools_notes__whoami'], { script, cwd: project, env: env() })
    expect(r.err).not.toContain('CLAUDE_PLUGIN_DATA')
    const data = join(dir, 'home', '.claude', 'plugins', 'data', 'tools-inline')
    const result = (r.requests[1]!.body as any).messages.at(-1).content[0].content as string
    expect(JSON.parse(result)).toEqual({ argv: [`${data}/notes.db`], secret: plugin, pluginRoot: plugin, pluginData: data })
    expect(existsSync(data)).toBe(true)
  })
})

