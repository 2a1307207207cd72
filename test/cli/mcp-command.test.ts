import { mkdir, readFile, stat, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { Readable } from 'node:stream'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { main } from '../../cli/main.js'
import type { Io } from '../../cli/io.js'
import { collectServers } from '../../mods/mcp/sources.js'
import { approveServers, serverFingerprint } from '../../mods/mcp/approvals.js'
import { setTrust } from '../../mods/permissions/trust-store.js'
import { mcpOptions } from '../../mods/mcp/options.js'
import { FIXTURE, tempDirs } from '../mcp/helpers.js'

let dirs: Awaited<ReturnType<typeof tempDirs>>
beforeEach(async () => { dirs = await tempDirs() })
afterEach(async () => { await dirs.remove() })

/** Runs `modloop mcp …` in the project with the temp home, capturing what it prints. */
async function mcp(args: string[], stdin?: string, cwd = dirs.project): Promise<{ code: number; out: string; err: string }> {
  let out = ''
  let err = ''
  const io: Io = {
    stdout: { write: (t: string) => (out += t) }, stderr: { write: (t: string) => (err += t) },
    cwd, env: { HOME: dirs.home, MODLOOP_HOME: join(dirs.home, '.modloop'), MCP_TIMEOUT: '10000' },
    ...(stdin !== undefined ? { stdin: Readable.from([stdin]) } : {}),
  }
  const code = await main(['mcp', ...args], io)
  return { code, out, err }
}
const userJson = async () => JSON.parse(await readFile(join(dirs.home, '.claude.json'), 'utf8'))
const mcpJson = async () => JSON.parse(await readFile(join(dirs.project, '.mcp.json'), 'utf8'))

describe('modloop mcp add', () => {
  it('writes each scope where the mcp mod reads it, in the shape Claude Code writes', async () => {
    expect(await mcp(['add', 'local1', '-e', 'A=1', 'B=x=y', '--', 'npx', '-y', 'pkg', '--flag'])).toEqual({
      code: 0, err: '',
      out: `Added stdio MCP server local1 with command: npx -y pkg --flag to local config\nFile modified: ${join(dirs.home, '.claude.json')} [project: ${dirs.project}]\n`,
    })
    expect((await mcp(['add', '-s', 'user', '-t', 'http', 'web', 'https://example.com/mcp', '-H', 'Authorization: Bearer s3', '-H', 'X-Team: a'])).out)
      .toBe(`Added HTTP MCP server web with URL: https://example.com/mcp to user config\nHeaders: {\n  "Authorization": "[REDACTED]",\n  "X-Team": "a"\n}\nFile modified: ${join(dirs.home, '.claude.json')}\n`)
    expect((await mcp(['add', '-s', 'project', '-t', 'sse', 'events', 'https://example.com/sse'])).code).toBe(0)

    const user = await userJson()
    expect(user.projects[dirs.project].mcpServers).toEqual({ local1: { type: 'stdio', command: 'npx', args: ['-y', 'pkg', '--flag'], env: { A: '1', B: 'x=y' } } })
    expect(user.mcpServers).toEqual({ web: { type: 'http', url: 'https://example.com/mcp', headers: { Authorization: 'Bearer s3', 'X-Team': 'a' } } })
    expect(await mcpJson()).toEqual({ mcpServers: { events: { type: 'sse', url: 'https://example.com/sse' } } })
    expect((await stat(join(dirs.home, '.claude.json'))).mode & 0o777).toBe(0o600)

    const { servers } = await collectServers({
      cwd: dirs.project, options: mcpOptions.parse({}), flags: {}, env: (n) => ({ HOME: dirs.home })[n], projectTrust: async () => ({ trusted: true }),
    })
    expect(servers.map((s) => [s.name, s.scope, s.config?.type])).toEqual([['web', 'user', 'http'], ['events', 'project', 'sse'], ['local1', 'local', 'stdio']])
  })

  it("writes the local scope under the git repository's root, where Claude Code and a session there read it", async () => {
    await mkdir(join(dirs.project, '.git'))
    await mkdir(join(dirs.project, 'sub'))
    expect((await mcp(['add', 'inSub', '/nonexistent/cmd'], undefined, join(dirs.project, 'sub'))).out).toContain(`[project: ${dirs.project}]`)
    expect(Object.keys((await userJson()).projects)).toEqual([dirs.project])
    expect((await mcp(['get', 'inSub'])).out).toContain('Scope: Local config')
  })

  it('keeps the rest of .claude.json and refuses a name the scope has, a bad scope, transport, env or header', async () => {
    await writeFile(join(dirs.home, '.claude.json'), JSON.stringify({ theme: 'dark', projects: { [dirs.project]: { allowedTools: ['Bash'] } } }))
    expect((await mcp(['add', 'one', 'node'])).code).toBe(0)
    expect(await userJson()).toEqual({ theme: 'dark', projects: { [dirs.project]: { allowedTools: ['Bash'], mcpServers: { one: { type: 'stdio', command: 'node', args: [], env: {} } } } } })
    expect(await mcp(['add', 'one', 'node'])).toMatchObject({ code: 1, out: '', err: 'MCP server one already exists in local config\n' })
    expect((await mcp(['add', '-s', 'user', 'one', 'node'])).code).toBe(0)
    expect((await mcp(['add', '-s', 'global', 'x', 'node'])).err).toBe('Invalid scope: global. Must be one of: local, project, user\n')
    expect((await mcp(['add', '-t', 'ws', 'x', 'node'])).err).toBe('Invalid transport type: ws. Must be one of: stdio, sse, http (or streamable-http)\n')
    expect((await mcp(['add', 'x', '-e', 'NOEQ', '--', 'node'])).err).toMatch(/^Invalid environment variable format: NOEQ/)
    expect((await mcp(['add', '-t', 'http', 'x', 'https://a.b', '-H', 'NoColon'])).err).toBe('Invalid header format: "NoColon". Expected format: "Header-Name: value"\n')
    expect((await mcp(['add', 'bad name', 'node'])).code).toBe(1)
    expect((await mcp(['add', 'x'])).code).toBe(1)
    expect((await userJson()).mcpServers).toEqual({ one: { type: 'stdio', command: 'node', args: [], env: {} } })
  })
})

describe('modloop mcp add-json', () => {
  it('checks the config with the mcp mod and writes it as given (- reads stdin)', async () => {
    expect(await mcp(['add-json', 'j', '{"command":"node","args":["x"]}'])).toMatchObject({ code: 0, out: 'Added stdio MCP server j to local config\n' })
    expect(await mcp(['add-json', '-s', 'project', 'h', '-'], '{"type":"http","url":"https://a.b/mcp"}')).toMatchObject({ code: 0, out: 'Added http MCP server h to project config\n' })
    expect((await mcp(['add-json', 'bad', 'not json'])).err).toBe('Invalid configuration: not a JSON object. Check its quotes, commas and braces.\n')
    expect((await mcp(['add-json', 'bad', '{"type":"http"}'])).err).toMatch(/^Invalid configuration: "url"/)
    expect((await userJson()).projects[dirs.project].mcpServers).toEqual({ j: { command: 'node', args: ['x'] } })
    expect(await mcpJson()).toEqual({ mcpServers: { h: { type: 'http', url: 'https://a.b/mcp' } } })
  })
})

describe('modloop mcp list, get, remove', () => {
  it('says when there are none', async () => {
    expect(await mcp(['list'])).toEqual({ code: 0, err: '', out: 'No MCP servers configured. Use `modloop mcp add` to add a server.\n' })
    expect(await mcp(['get', 'nope'])).toMatchObject({ code: 1, err: 'No MCP server named "nope". Run `modloop mcp add` to add one.\n' })
    expect(await mcp(['remove', 'nope'])).toMatchObject({ code: 1, err: 'No MCP server named "nope". Run `modloop mcp add` to add one.\n' })
  })

  it('checks every server, leaves a project server not yet approved unstarted, and shows one in full', async () => {
    const node = process.execPath
    await mcp(['add', '-s', 'user', 'broken', '--', '/nonexistent/cmd'])
    await mcp(['add', '-s', 'project', 'proj', '--', node, FIXTURE])
    await mcp(['add', 'good', '-e', 'FIXTURE_SECRET=s', '--', node, FIXTURE, '--a'])
    // Turned off in settings: not listed, and `get` says so.
    await mcp(['add', '-s', 'project', 'off', '--', '/nonexistent/cmd'])
    await mkdir(join(dirs.project, '.claude'))
    await writeFile(join(dirs.project, '.claude', 'settings.local.json'), JSON.stringify({ disabledMcpjsonServers: ['off'] }))
    expect((await mcp(['get', 'off'])).out).toContain('  Scope: Project config (shared via .mcp.json)\n  Status: ✘ Rejected (see disabledMcpjsonServers in settings)\n')
    const list = await mcp(['list'])
    expect(list.code).toBe(0)
    expect(list.out).toBe([
      'Checking MCP server health…', '',
      'broken: /nonexistent/cmd  - ✘ Failed to connect — the command was not found (/nonexistent/cmd)',
      `proj: ${node} ${FIXTURE} - ⏸ Pending approval (run \`modloop\` to approve)`,
      `good: ${node} ${FIXTURE} --a - ✔ Connected`, '',
    ].join('\n'))
    expect((await mcp(['get', 'good'])).out).toBe([
      'good:', '  Scope: Local config (private to you in this project)', '  Status: ✔ Connected', '  Type: stdio',
      `  Command: ${node}`, `  Args: ${FIXTURE} --a`, '  Environment:', '    FIXTURE_SECRET=s', '',
      'To remove this server, run: modloop mcp remove good -s local', '',
    ].join('\n'))
  })

  it("lists the .mcp.json of the folders above as project servers, the nearer config for a name in two; add and remove edit only the folder's own", async () => {
    const sub = join(dirs.project, 'sub')
    await mkdir(sub)
    await writeFile(join(dirname(dirs.project), '.mcp.json'), JSON.stringify({ mcpServers: { far: { command: 'far-cmd' }, dup: { command: 'far-dup' } } }))
    await writeFile(join(dirs.project, '.mcp.json'), JSON.stringify({ mcpServers: { dup: { command: 'near-dup' } } }))
    expect((await mcp(['list'], undefined, sub)).out).toBe([
      'Checking MCP server health…', '',
      'far: far-cmd  - ⏸ Pending approval (run `modloop` to approve)',
      'dup: near-dup  - ⏸ Pending approval (run `modloop` to approve)', '',
    ].join('\n'))
    expect((await mcp(['get', 'far'], undefined, sub)).out).toContain('far:\n  Scope: Project config (shared via .mcp.json)\n')
    expect(await mcp(['remove', 'far', '-s', 'project'], undefined, sub)).toMatchObject({ code: 1, err: 'No MCP server named "far" in .mcp.json\n' })
    expect((await mcp(['add', '-s', 'project', 'far', 'sub-cmd'], undefined, sub)).out).toContain(`File modified: ${join(sub, '.mcp.json')}`)
    expect((await mcp(['get', 'far'], undefined, sub)).out).toContain('  Command: sub-cmd\n')
  })

  it('refuses to guess which scope to remove from, and removes from the one named', async () => {
    for (const scope of ['local', 'project', 'user']) await mcp(['add', '-s', scope, 'dup', 'node'])
    const refused = await mcp(['remove', 'dup'])
    expect(refused.code).toBe(1)
    expect(refused.err).toContain('MCP server "dup" exists in multiple scopes:\n  - Local config (private to you in this project)')
    expect(refused.err).toContain('To remove from a specific scope, use:\n  modloop mcp remove dup -s local\n  modloop mcp remove dup -s project\n  modloop mcp remove dup -s user\n')
    expect(await mcp(['remove', 'dup', '-s', 'user'])).toMatchObject({ code: 0, out: `Removed MCP server dup from user config\nFile modified: ${join(dirs.home, '.claude.json')}\n` })
    expect(await mcp(['remove', 'dup', '-s', 'user'])).toMatchObject({ code: 1, err: 'No MCP server named "dup" in user scope\n' })
    expect((await mcp(['remove', 'dup', '-s', 'project'])).code).toBe(0)
    expect((await mcp(['remove', 'dup'])).out).toBe(`Removed MCP server "dup" from local config\nFile modified: ${join(dirs.home, '.claude.json')} [project: ${dirs.project}]\n`)
    expect(await mcpJson()).toEqual({ mcpServers: {} })
    expect(await userJson()).toEqual({ mcpServers: {}, projects: { [dirs.project]: { mcpServers: {} } } })
  })

  it('reset-project-choices forgets the approvals of .mcp.json servers, so they are pending again', async () => {
    const store = join(dirs.home, '.modloop', 'trusted.json')
    await mcp(['add', '-s', 'project', 'proj', '--', '/nonexistent/cmd'])
    await setTrust(store, dirs.project, true)
    await approveServers(store, dirs.project, [serverFingerprint('proj', (await mcpJson()).mcpServers.proj)])
    await mkdir(join(dirs.project, '.claude'))
    await writeFile(join(dirs.project, '.claude', 'settings.local.json'), JSON.stringify({ enabledMcpjsonServers: ['proj'], model: 'x' }))
    await writeFile(join(dirs.home, '.claude.json'), JSON.stringify({ projects: { [dirs.project]: { disabledMcpjsonServers: ['other'], allowedTools: [] } } }))
    expect((await mcp(['get', 'proj'])).out).toContain('Status: ✘ Failed to connect')
    expect(await mcp(['reset-project-choices'])).toEqual({
      code: 0, err: '',
      out: 'Project-scoped (.mcp.json) server approvals and rejections stored for this project have been reset.\nYou will be prompted for approval next time you start modloop.\n',
    })
    expect((await mcp(['get', 'proj'])).out).toContain('Status: ⏸ Pending approval (run `modloop` to approve)')
    expect(JSON.parse(await readFile(join(dirs.project, '.claude', 'settings.local.json'), 'utf8'))).toEqual({ model: 'x' })
    expect(await userJson()).toEqual({ projects: { [dirs.project]: { allowedTools: [] } } })
  })
})
