import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runScript } from '../loop/helpers.js'
import { resultText, stdio, tempDirs, toolResults } from './helpers.js'

let dirs: Awaited<ReturnType<typeof tempDirs>>
beforeAll(async () => { dirs = await tempDirs() })
afterAll(() => dirs.remove())

const use = (name: string, input: Record<string, unknown> = {}) => ({ tool_use: { name, input } })

describe('MCP tools under permission rules and settings hooks (the default mods, from a config)', () => {
  it('mcp__fixture allows the server, mcp__fixture__fail denies one tool, and a PreToolUse hook matching mcp__fixture__.* sees both calls', async () => {
    const log = join(dirs.project, 'hook.log')
    const trustStore = join(dirs.home, 'trusted.json')
    await writeFile(join(dirs.project, 'modloop.config.json'), JSON.stringify({
      mods: [['mcp', { home: dirs.home }], ['permissions', { home: dirs.home, trustStore }], ['shell-hooks', { home: dirs.home, managedDir: false, trustStore }]],
      mcpServers: { fixture: stdio() },
      permissions: { allow: ['mcp__fixture'], deny: ['mcp__fixture__fail'] },
      hooks: {
        PreToolUse: [
          { matcher: 'mcp__fixture__.*', hooks: [{ type: 'command', command: `cat >> '${log}'; echo >> '${log}'` }] },
          { matcher: 'Bash', hooks: [{ type: 'command', command: `echo bash >> '${log}'` }] },
        ],
      },
    }))
    const run = await runScript([{ reply: [use('mcp__fixture__echo', { text: 'hi' }), use('mcp__fixture__fail')] }, { reply: 'done' }], 'go', {
      bare: false, mods: [], cwd: dirs.project, trustWorkspace: true,
    })
    expect(run.error).toBeUndefined()
    const [echo, fail] = toolResults(run.requests, 1)
    expect(resultText(echo!)).toBe('echo: hi')
    expect(fail).toMatchObject({ is_error: true })
    expect(resultText(fail!)).toContain('denied by the rule mcp__fixture__fail (the modloop config)')
    expect(run.result.permission_denials.map((d) => d.tool_name)).toEqual(['mcp__fixture__fail'])
    const seen = (await readFile(log, 'utf8')).split('\n').filter(Boolean).map((l) => JSON.parse(l))
    expect(seen.map((e) => [e.hook_event_name, e.tool_name]).sort()).toEqual([['PreToolUse', 'mcp__fixture__echo'], ['PreToolUse', 'mcp__fixture__fail']])
    expect(seen.map((e) => e.mcp_server)).toEqual([{ name: 'fixture', source: 'dynamic' }, { name: 'fixture', source: 'dynamic' }])
  })

  it("a PostToolUse hook's updatedMCPToolOutput (the older name of updatedToolOutput, for MCP tools) replaces what the model reads", async () => {
    const trustStore = join(dirs.home, 'trusted.json')
    const output = { hookSpecificOutput: { hookEventName: 'PostToolUse', updatedMCPToolOutput: [{ type: 'text', text: 'REDACTED BY HOOK' }] } }
    await writeFile(join(dirs.project, 'modloop.config.json'), JSON.stringify({
      mods: [['mcp', { home: dirs.home }], ['permissions', { home: dirs.home, trustStore }], ['shell-hooks', { home: dirs.home, managedDir: false, trustStore }]],
      mcpServers: { fixture: stdio() },
      permissions: { allow: ['mcp__fixture'] },
      hooks: { PostToolUse: [{ matcher: 'mcp__fixture__echo', hooks: [{ type: 'command', command: `echo '${JSON.stringify(output)}'` }] }] },
    }))
    const run = await runScript([{ reply: [use('mcp__fixture__echo', { text: 'a secret' })] }, { reply: 'done' }], 'go', {
      bare: false, mods: [], cwd: dirs.project, trustWorkspace: true,
    })
    expect(resultText(toolResults(run.requests, 1)[0]!)).toBe('REDACTED BY HOOK')
  })
  it("a PostToolUse hook gets an MCP tool's content blocks as tool_response and its server as mcp_server, as Claude Code sends them", async () => {
    const log = join(dirs.project, 'post.log')
    const trustStore = join(dirs.home, 'trusted.json')
    await writeFile(join(dirs.project, 'modloop.config.json'), JSON.stringify({
      mods: [['mcp', { home: dirs.home }], ['permissions', { home: dirs.home, trustStore }], ['shell-hooks', { home: dirs.home, managedDir: false, trustStore }]],
      mcpServers: { fixture: stdio() },
      permissions: { allow: ['mcp__fixture'] },
      hooks: { PostToolUse: [{ matcher: 'mcp__fixture__echo', hooks: [{ type: 'command', command: `cat > '${log}'` }] }] },
    }))
    const run = await runScript([{ reply: [use('mcp__fixture__echo', { text: 'hi' })] }, { reply: 'done' }], 'go', {
      bare: false, mods: [], cwd: dirs.project, trustWorkspace: true,
    })
    expect(run.error).toBeUndefined()
    const post = JSON.parse(await readFile(log, 'utf8'))
    expect(post.tool_response).toEqual([{ type: 'text', text: 'echo: hi' }])
    expect(post.mcp_server).toEqual({ name: 'fixture', source: 'dynamic' })
  })
})
