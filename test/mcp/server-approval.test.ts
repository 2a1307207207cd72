import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { approvedServers, approveServers, projectServers, serverFingerprint } from '../../mods/mcp/approvals.js'
import { runScript, toolsMod } from '../loop/helpers.js'
import { initOf, mcp, stdio, tempDirs } from './helpers.js'

let dirs: Awaited<ReturnType<typeof tempDirs>>
beforeAll(async () => { dirs = await tempDirs() })
afterAll(() => dirs.remove())

describe('project MCP server fingerprints', () => {
  it('change with the command, args, env, url or headers, not with the order of keys', () => {
    const base = serverFingerprint('s', { command: 'node', args: ['a'], env: { A: '1', B: '2' } })
    expect(serverFingerprint('s', { env: { B: '2', A: '1' }, args: ['a'], command: 'node' })).toBe(base)
    expect(serverFingerprint('s', { command: 'node', args: ['b'], env: { A: '1', B: '2' } })).not.toBe(base)
    expect(serverFingerprint('s', { command: 'sh', args: ['a'], env: { A: '1', B: '2' } })).not.toBe(base)
    expect(serverFingerprint('s', { command: 'node', args: ['a'], env: { A: '9', B: '2' } })).not.toBe(base)
    expect(serverFingerprint('t', { command: 'node', args: ['a'], env: { A: '1', B: '2' } })).not.toBe(base)
    const http = serverFingerprint('h', { type: 'http', url: 'https://a.example/mcp', headers: { X: '1' } })
    expect(serverFingerprint('h', { type: 'http', url: 'https://b.example/mcp', headers: { X: '1' } })).not.toBe(http)
    expect(serverFingerprint('h', { type: 'http', url: 'https://a.example/mcp', headers: { X: '2' } })).not.toBe(http)
  })
})

describe('project MCP servers in a trusted workspace', () => {
  it('start only once approved: a new or changed one is left out and reported; --trust-workspace starts them all', async () => {
    const trustStore = join(dirs.home, 'trusted.json')
    await writeFile(join(dirs.home, '.claude.json'), '{}')
    const mcpJson = (extra: Record<string, unknown>) => writeFile(join(dirs.project, '.mcp.json'), JSON.stringify({ mcpServers: { proj: stdio(extra) } }))
    const go = async (o: { trustWorkspace?: boolean } = {}) => {
      const logged: string[] = []
      const run = await runScript([{ reply: 'ok' }], 'go', { cwd: dirs.project, ...o, log: (line: string) => logged.push(line), mods: [toolsMod(), mcp({ home: dirs.home, trustStore })] })
      return { statuses: initOf(run.messages).mcp_servers, logged: logged.join('\n') }
    }
    await mcpJson({})

    const fresh = await go()
    expect(fresh.statuses).toEqual([{ name: 'proj', status: 'disabled' }])
    expect(fresh.logged).toMatch(/MCP server "proj" not started: not approved/)

    const [listed] = await projectServers(dirs.project, trustStore)
    expect(listed).toMatchObject({ name: 'proj', approved: false })
    await approveServers(trustStore, dirs.project, [listed!.fingerprint])
    expect((await approvedServers(trustStore, dirs.project)).has(listed!.fingerprint)).toBe(true)
    expect((await go()).statuses).toEqual([{ name: 'proj', status: 'connected' }])

    // The same name, now running something else: asked about anew.
    await mcpJson({ env: { EXTRA: '1' } })
    expect((await go()).statuses).toEqual([{ name: 'proj', status: 'disabled' }])
    expect((await go({ trustWorkspace: true })).statuses).toEqual([{ name: 'proj', status: 'connected' }])
  })
})
