import { mkdir, realpath, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expandVars } from '../../mods/mcp/expand.js'
import { mcpOptions } from '../../mods/mcp/options.js'
import { collectServers, type SourceInput } from '../../mods/mcp/sources.js'
import { outputLimit, toToolOutput } from '../../mods/mcp/tool-result.js'
import { projectTrust } from '../../mods/mcp/trust.js'
import { runScript, toolsMod } from '../loop/helpers.js'
import { FIXTURE, initOf, mcp, resultText, stdio, tempDirs, toolResults } from './helpers.js'

let dirs: Awaited<ReturnType<typeof tempDirs>>
beforeAll(async () => { dirs = await tempDirs() })
afterAll(() => dirs.remove())

const env = (vars: Record<string, string>) => (name: string) => vars[name]
const input = (over: Partial<SourceInput> = {}): SourceInput => ({
  cwd: dirs.project, options: mcpOptions.parse({ home: dirs.home }), flags: {}, env: env({}),
  projectTrust: async () => ({ trusted: true }), ...over,
})

describe('${VAR} expansion', () => {
  it('expands ${VAR} and ${VAR:-default} in every string and names variables that are missing', () => {
    const vars = env({ TOKEN: 'secret', EMPTY: '', HOST: 'example.org' })
    expect(expandVars({ url: 'https://${HOST}/mcp', headers: { Authorization: 'Bearer ${TOKEN}' }, args: ['${EMPTY:-fallback}', '${EMPTY}', '${NOPE:-}', 'x${NOPE}y'] }, vars)).toEqual({
      value: { url: 'https://example.org/mcp', headers: { Authorization: 'Bearer secret' }, args: ['fallback', '', '', 'xy'] },
      missing: ['NOPE'],
    })
  })

  it('starts a server with expanded command arguments and environment', async () => {
    process.env.MCP_FX_ARG = 'from-env'
    try {
      const servers = {
        fixture: { command: process.execPath, args: [FIXTURE, '${MCP_FX_ARG}', '${MCP_FX_UNSET:-fallback-arg}'], env: { FIXTURE_SECRET: '${MCP_FX_SECRET:-default-secret}' } },
        broken: { command: '${MCP_FX_NOPE}' },
      }
      const run = await runScript([{ reply: [{ tool_use: { name: 'mcp__fixture__whoami', input: {} } }] }, { reply: 'done' }], 'go', {
        cwd: dirs.project, mods: [toolsMod(), mcp({ home: dirs.home, servers })],
      })
      expect(JSON.parse(resultText(toolResults(run.requests, 1)[0]!))).toEqual({ argv: ['from-env', 'fallback-arg'], secret: 'default-secret' })
      expect(initOf(run.messages).mcp_servers).toEqual([{ name: 'fixture', status: 'connected', source: 'dynamic' }, { name: 'broken', status: 'failed', source: 'dynamic' }])
    } finally {
      delete process.env.MCP_FX_ARG
    }
  })
})

describe('server sources', () => {
  it('reads .claude.json (user and per project), the config, .mcp.json and query() options; later scopes win', async () => {
    const cwd = await realpath(dirs.project)
    await writeFile(join(dirs.home, '.claude.json'), JSON.stringify({
      mcpServers: { user: { command: 'u' }, shared: { command: 'from-user' } },
      projects: { [cwd]: { mcpServers: { local: { type: 'sse', url: 'http://127.0.0.1:1/sse' } } } },
    }))
    await writeFile(join(dirs.project, '.mcp.json'), JSON.stringify({ mcpServers: { project: { type: 'http', url: '${BASE}/mcp', headers: { 'X-Key': '${KEY:-none}' } }, shared: { command: 'from-project' } } }))
    const { servers, warnings } = await collectServers(input({
      options: mcpOptions.parse({ home: dirs.home, servers: { config: { command: 'c', args: ['-v'] }, shared: { command: 'from-config' } } }),
      flags: { mcpServers: { query: { command: 'q' } } },
      env: env({ BASE: 'http://127.0.0.1:9' }),
    }))
    expect(warnings).toEqual([])
    const by = Object.fromEntries(servers.map((s) => [s.name, s]))
    expect(servers.map((s) => [s.name, s.scope])).toEqual([['user', 'user'], ['config', 'config'], ['project', 'project'], ['shared', 'project'], ['local', 'local'], ['query', 'query']])
    expect(by.shared!.config).toMatchObject({ command: 'from-project' })
    expect(by.project!.config).toEqual({ type: 'http', url: 'http://127.0.0.1:9/mcp', headers: { 'X-Key': 'none' } })
    expect(by.config!.config).toEqual({ command: 'c', args: ['-v'], env: {} })
    expect(by.local!.config).toMatchObject({ type: 'sse' })
  })

  it("reads the local scope under the git repository's root (a worktree's main checkout), as Claude Code keys it", async () => {
    const root = join(dirs.project, 'repo')
    const worktree = join(dirs.project, 'wt')
    await mkdir(join(root, '.git', 'worktrees', 'wt'), { recursive: true })
    await mkdir(join(root, 'src', 'deep'), { recursive: true })
    await mkdir(worktree, { recursive: true })
    await writeFile(join(root, '.git', 'worktrees', 'wt', 'commondir'), '../..\n')
    await writeFile(join(worktree, '.git'), `gitdir: ${join(root, '.git', 'worktrees', 'wt')}\n`)
    const home = join(dirs.project, 'home-git')
    await mkdir(home)
    await writeFile(join(home, '.claude.json'), JSON.stringify({ projects: { [await realpath(root)]: { mcpServers: { atRoot: { command: 'r' } } } } }))
    for (const cwd of [root, join(root, 'src', 'deep'), worktree]) {
      const { servers } = await collectServers(input({ cwd, options: mcpOptions.parse({ home }) }))
      // The project's own `.mcp.json`, written by the tests above, is read from these folders too.
      expect(servers.filter((s) => s.scope !== 'project').map((s) => [s.name, s.scope]), cwd).toEqual([['atRoot', 'local']])
    }
  })

  it('keeps project servers disabled in an untrusted workspace, and reports bad files and configs', async () => {
    await writeFile(join(dirs.home, '.claude.json'), '{ not json')
    await writeFile(join(dirs.project, '.mcp.json'), JSON.stringify({ mcpServers: { project: { command: 'p' }, odd: { type: 'ws', url: 'x' } } }))
    const { servers, warnings } = await collectServers(input({ projectTrust: async () => ({ trusted: false, why: 'not trusted' }) }))
    expect(warnings).toEqual([expect.stringMatching(/\.claude\.json is not valid JSON/)])
    expect(servers[0]).toMatchObject({ name: 'project', disabled: 'not trusted' })
    expect(servers[1]!.error).toMatch(/server "odd": unknown type "ws" \(expected stdio, http, sse or sdk\)/)
  })

  it('trusts project servers like project hooks: trusted.json, --trust-workspace, or a non-interactive run', async () => {
    const trustStore = join(dirs.home, 'modloop', 'trusted.json')
    const base = { cwd: dirs.project, trustFlag: false, headlessTrust: true, trustStore, env: env({}) }
    expect(await projectTrust({ ...base, isInteractive: false })).toEqual({ trusted: true })
    expect((await projectTrust({ ...base, isInteractive: true })).trusted).toBe(false)
    expect((await projectTrust({ ...base, isInteractive: false, headlessTrust: false })).why).toMatch(/modloop trust/)
    expect(await projectTrust({ ...base, isInteractive: true, trustFlag: true })).toEqual({ trusted: true })
    await mkdir(join(dirs.home, 'modloop'), { recursive: true })
    await writeFile(trustStore, JSON.stringify({ workspaces: { [await realpath(dirs.project)]: { trustedAt: new Date().toISOString() } } }))
    expect(await projectTrust({ ...base, isInteractive: true })).toEqual({ trusted: true })
  })

  it('connects .mcp.json servers only when the workspace is trusted', async () => {
    await writeFile(join(dirs.home, '.claude.json'), '{}')
    await writeFile(join(dirs.project, '.mcp.json'), JSON.stringify({ mcpServers: { proj: stdio() } }))
    const trustStore = join(dirs.home, 'empty-trust.json')
    const untrusted = await runScript([{ reply: 'ok' }], 'go', { cwd: dirs.project, mods: [toolsMod(), mcp({ home: dirs.home, trustStore, trustProjectServers: false })] })
    expect(initOf(untrusted.messages).mcp_servers).toEqual([{ name: 'proj', status: 'disabled', source: 'project' }])
    expect(untrusted.requests[0]!.body.tools.map((t: { name: string }) => t.name)).not.toContain('mcp__proj__echo')
    const flagged = await runScript([{ reply: 'ok' }], 'go', { cwd: dirs.project, trustWorkspace: true, mods: [toolsMod(), mcp({ home: dirs.home, trustStore, trustProjectServers: false })] })
    expect(initOf(flagged.messages).mcp_servers).toEqual([{ name: 'proj', status: 'connected', source: 'project' }])
  })
})

describe('tool results', () => {
  it('maps every content kind to text and keeps the content blocks as the result', async () => {
    const raw = { content: [{ type: 'audio', data: 'AA', mimeType: 'audio/wav' }, { type: 'resource', resource: { uri: 'db://x', blob: 'AA', mimeType: 'application/octet-stream' } }, { type: 'resource_link', uri: 'file:///a.md', name: 'a', description: 'the notes' }] }
    expect(await toToolOutput(raw, 'mcp__s__t', outputLimit(undefined))).toEqual({
      result: raw.content, text: '[Audio: audio/wav]\n[Resource: db://x (application/octet-stream)] binary content not shown\n[Resource link: a] file:///a.md (the notes)',
    })
    expect(await toToolOutput({ content: [], structuredContent: { n: 1 } }, 'mcp__s__t', outputLimit(undefined))).toEqual({ result: { content: [], structuredContent: { n: 1 } }, text: '{"n":1}' })
    expect(await toToolOutput({ content: [], isError: true }, 'mcp__s__t', outputLimit(undefined))).toMatchObject({ isError: true, text: 'mcp__s__t reported an error without a message' })
    // As Claude Code words it, in parentheses: a note from the client, not words of the tool.
    expect((await toToolOutput({ content: [] }, 'mcp__s__t', outputLimit(undefined))).text).toBe('(mcp__s__t completed with no output)')
  })

  it('limits output to MAX_MCP_OUTPUT_TOKENS (default 25,000 ≈ 100,000 characters); a tool may raise its own limit', () => {
    expect(outputLimit(undefined)).toEqual({ chars: 100_000, tokens: 25_000 })
    expect(outputLimit('500')).toEqual({ chars: 2_000, tokens: 500 })
    expect(outputLimit(undefined, 300_000).chars).toBe(300_000)
    expect(outputLimit(undefined, 900_000).chars).toBe(500_000)
  })
})
