import { mkdir, rm, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { approvedServers, approveServers, projectServers, serverFingerprint } from '../../mods/mcp/approvals.js'
import { setTrust } from '../../mods/permissions/trust-store.js'
import { runScript, toolsMod } from '../loop/helpers.js'
import { initOf, mcp, stdio, tempDirs } from './helpers.js'

let dirs: Awaited<ReturnType<typeof tempDirs>>
beforeAll(async () => { dirs = await tempDirs() })
afterAll(() => dirs.remove())

describe('project MCP server fingerprints', () => {
  it('change with the command, args, env, cwd, url or headers, not with the order of keys', () => {
    const base = serverFingerprint('s', { command: 'node', args: ['a'], env: { A: '1', B: '2' } })
    expect(serverFingerprint('s', { env: { B: '2', A: '1' }, args: ['a'], command: 'node' })).toBe(base)
    expect(serverFingerprint('s', { command: 'node', args: ['b'], env: { A: '1', B: '2' } })).not.toBe(base)
    expect(serverFingerprint('s', { command: 'sh', args: ['a'], env: { A: '1', B: '2' } })).not.toBe(base)
    expect(serverFingerprint('s', { command: 'node', args: ['a'], env: { A: '9', B: '2' } })).not.toBe(base)
    expect(serverFingerprint('t', { command: 'node', args: ['a'], env: { A: '1', B: '2' } })).not.toBe(base)
    // `node a` in another folder runs another file.
    expect(serverFingerprint('s', { command: 'node', args: ['a'], env: { A: '1', B: '2' }, cwd: 'tools' })).not.toBe(base)
    expect(serverFingerprint('s', { command: 'node', args: ['a'], env: { A: '1', B: '2' }, cwd: 'tools' })).not.toBe(serverFingerprint('s', { command: 'node', args: ['a'], env: { A: '1', B: '2' }, cwd: 'evil' }))
    const http = serverFingerprint('h', { type: 'http', url: 'https://a.example/mcp', headers: { X: '1' } })
    expect(serverFingerprint('h', { type: 'http', url: 'https://b.example/mcp', headers: { X: '1' } })).not.toBe(http)
    expect(serverFingerprint('h', { type: 'http', url: 'https://a.example/mcp', headers: { X: '2' } })).not.toBe(http)
  })
})

describe('project MCP servers as a reviewer reads them', () => {
  it('say what runs, and in which folder when the entry sets one', async () => {
    await writeFile(join(dirs.home, '.mcp.json'), JSON.stringify({ mcpServers: { here: { command: 'node', args: ['server.js'] }, there: { command: 'node', args: ['server.js'], cwd: 'tools' } } }))
    const listed = await projectServers(dirs.home, join(dirs.home, 'no-trust.json'))
    expect(listed.map((s) => s.summary)).toEqual(['node server.js', 'node server.js (in tools)'])
  })
})

describe('project MCP servers in a trusted workspace', () => {
  it('are asked about in the terminal, which leaves out what is not approved; a run with no one to ask starts them and names the unapproved; --trust-workspace starts them all', async () => {
    const trustStore = join(dirs.home, 'trusted.json')
    await writeFile(join(dirs.home, '.claude.json'), '{}')
    // A trusted folder: what is left to decide is each server.
    await setTrust(trustStore, dirs.project, true)
    const mcpJson = (extra: Record<string, unknown>) => writeFile(join(dirs.project, '.mcp.json'), JSON.stringify({ mcpServers: { proj: stdio(extra) } }))
    const go = async (o: { trustWorkspace?: boolean; isInteractive?: boolean } = {}) => {
      const logged: string[] = []
      const run = await runScript([{ reply: 'ok' }], 'go', { cwd: dirs.project, ...o, log: (line: string) => logged.push(line), mods: [toolsMod(), mcp({ home: dirs.home, trustStore })] })
      return { statuses: initOf(run.messages).mcp_servers, logged: logged.join('\n') }
    }
    await mcpJson({})

    // The terminal asked before the session (see terminal-ui's servers review); what it did not approve stays out.
    const declined = await go({ isInteractive: true })
    expect(declined.statuses).toEqual([{ name: 'proj', status: 'disabled', source: 'project' }])
    expect(declined.logged).toMatch(/MCP server "proj" not started: not approved/)
    // Headless, like project hooks: it runs, and the log says it was not approved.
    const headless = await go()
    expect(headless.statuses).toEqual([{ name: 'proj', status: 'connected', source: 'project' }])
    expect(headless.logged).toMatch(/started a project MCP server not yet approved in this workspace: "proj"/)

    const [listed] = await projectServers(dirs.project, trustStore)
    expect(listed).toMatchObject({ name: 'proj', approved: false })
    await approveServers(trustStore, dirs.project, [listed!.fingerprint])
    expect((await approvedServers(trustStore, dirs.project)).has(listed!.fingerprint)).toBe(true)
    const approved = await go({ isInteractive: true })
    expect(approved.statuses).toEqual([{ name: 'proj', status: 'connected', source: 'project' }])
    expect((await go()).logged).not.toMatch(/not yet approved/)

    // The same name, now running something else: not approved any more.
    await mcpJson({ env: { EXTRA: '1' } })
    expect((await go({ isInteractive: true })).statuses).toEqual([{ name: 'proj', status: 'disabled', source: 'project' }])
    expect((await go()).logged).toMatch(/not yet approved in this workspace: "proj"/)
    expect((await go({ trustWorkspace: true, isInteractive: true })).statuses).toEqual([{ name: 'proj', status: 'connected', source: 'project' }])
  })

  it('a run with no one to ask names as started only the unapproved servers that did start', async () => {
    const trustStore = join(dirs.home, 'trusted-started.json')
    await writeFile(join(dirs.home, '.claude.json'), '{}')
    await setTrust(trustStore, dirs.project, true)
    await writeFile(join(dirs.project, '.mcp.json'), JSON.stringify({ mcpServers: { proj: stdio(), unset: stdio({ args: ['${MODLOOP_TEST_NEVER_SET}'] }) } }))
    const logged: string[] = []
    const run = await runScript([{ reply: 'ok' }], 'go', { cwd: dirs.project, log: (line: string) => logged.push(line), mods: [toolsMod(), mcp({ home: dirs.home, trustStore })] })
    expect(initOf(run.messages).mcp_servers).toEqual([{ name: 'proj', status: 'connected', source: 'project' }, { name: 'unset', status: 'failed', source: 'project' }])
    expect(logged.join('\n')).toMatch(/started a project MCP server not yet approved in this workspace: "proj"/)
    // It failed on its config: it was never started.
    expect(logged.join('\n')).not.toMatch(/started a project MCP server not yet approved in this workspace: "unset"/)
  })

  it("follow the settings' disabledMcpjsonServers, enabledMcpjsonServers and enableAllProjectMcpServers, the last two not from the checked-in settings", async () => {
    const trustStore = join(dirs.home, 'trusted-settings.json')
    await writeFile(join(dirs.home, '.claude.json'), '{}')
    await setTrust(trustStore, dirs.project, true)
    await mkdir(join(dirs.project, '.claude'), { recursive: true })
    await writeFile(join(dirs.project, '.mcp.json'), JSON.stringify({ mcpServers: { off: stdio(), named: stdio(), rest: stdio() } }))
    const settings = (file: string, json: unknown) => writeFile(join(dirs.project, '.claude', file), JSON.stringify(json))
    const go = async () => {
      const run = await runScript([{ reply: 'ok' }], 'go', { cwd: dirs.project, isInteractive: true, mods: [toolsMod(), mcp({ home: dirs.home, trustStore })] })
      return initOf(run.messages).mcp_servers
    }
    // The checkout cannot approve its own servers; it can turn one off.
    await settings('settings.json', { disabledMcpjsonServers: ['off'], enableAllProjectMcpServers: true, enabledMcpjsonServers: ['named'] })
    expect(await go()).toEqual([{ name: 'named', status: 'disabled', source: 'project' }, { name: 'rest', status: 'disabled', source: 'project' }])
    await settings('settings.local.json', { enabledMcpjsonServers: ['named'] })
    expect(await go()).toEqual([{ name: 'named', status: 'connected', source: 'project' }, { name: 'rest', status: 'disabled', source: 'project' }])
    await settings('settings.local.json', { enableAllProjectMcpServers: true })
    expect(await go()).toEqual([{ name: 'named', status: 'connected', source: 'project' }, { name: 'rest', status: 'connected', source: 'project' }])
  })
})

describe('project MCP servers of the folders above', () => {
  it("start from every .mcp.json up from the folder, the nearer one's config for a name in two, approved as the folder's own", async () => {
    const trustStore = join(dirs.home, 'trusted-parents.json')
    await writeFile(join(dirs.home, '.claude.json'), '{}')
    await setTrust(trustStore, dirs.project, true)
    const sub = join(dirs.project, 'sub')
    await mkdir(join(sub, '.claude'), { recursive: true })
    const above = join(dirname(dirs.project), '.mcp.json')
    await writeFile(above, JSON.stringify({ mcpServers: { far: stdio(), dup: { command: '/nonexistent/cmd' } } }))
    await writeFile(join(dirs.project, '.mcp.json'), JSON.stringify({ mcpServers: { dup: stdio() } }))
    const go = async (isInteractive: boolean) => {
      const run = await runScript([{ reply: 'ok' }], 'go', { cwd: sub, isInteractive, mods: [toolsMod(), mcp({ home: dirs.home, trustStore })] })
      return initOf(run.messages).mcp_servers
    }
    try {
      expect(await go(false)).toEqual([{ name: 'far', status: 'connected', source: 'project' }, { name: 'dup', status: 'connected', source: 'project' }])
      const listed = await projectServers(sub, trustStore)
      expect(listed.map((s) => [s.name, s.file, s.approved])).toEqual([['far', above, false], ['dup', join(dirs.project, '.mcp.json'), false]])
      // The settings of the folder the session runs in approve a server of a file above it.
      await writeFile(join(sub, '.claude', 'settings.local.json'), JSON.stringify({ enabledMcpjsonServers: ['far'] }))
      expect(await go(true)).toEqual([{ name: 'far', status: 'connected', source: 'project' }, { name: 'dup', status: 'disabled', source: 'project' }])
    } finally {
      await rm(above, { force: true })
    }
  })
})
