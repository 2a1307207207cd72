import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defineMod } from '../../core/mod/define.js'
import { runScript, toolsMod } from '../loop/helpers.js'
import { initOf, isAlive, mcp, resultText, stdio, tempDirs, toolResults } from './helpers.js'

let dirs: Awaited<ReturnType<typeof tempDirs>>
beforeAll(async () => { dirs = await tempDirs() })
afterAll(() => dirs.remove())

const use = (name: string, input: Record<string, unknown> = {}) => ({ tool_use: { name, input } })
const names = (request: { body: any }) => (request.body.tools as { name: string }[]).map((t) => t.name)

/** Records the mcp mod's published statuses as each tool call starts. */
function statusProbe(seen: unknown[]) {
  return defineMod({
    name: 'status-probe',
    uses: { serverStatus: 'required' },
    register(on) {
      on('tool.call', ($, e, next) => {
        seen.push(structuredClone($.capability.use('serverStatus')?.()))
        return next(e)
      })
    },
  })
}

describe('MCP server lifecycle', () => {
  it('reports a server that dies mid-call as a tool error naming it, and starts it again on next use', async () => {
    const seen: unknown[] = []
    const run = await runScript([
      { reply: [use('mcp__fixture__pid')] },
      { reply: [use('mcp__fixture__crash')] },
      { reply: [use('mcp__fixture__pid')] },
      { reply: 'done' },
    ], 'go', { cwd: dirs.project, mods: [toolsMod(), mcp({ home: dirs.home, servers: { fixture: stdio() } }), statusProbe(seen)] })
    const first = Number(resultText(toolResults(run.requests, 1)[0]!))
    const crash = toolResults(run.requests, 2)[0]!
    const second = Number(resultText(toolResults(run.requests, 3)[0]!))
    expect(crash.is_error).toBe(true)
    expect(resultText(crash)).toMatch(/^MCP server "fixture" stopped during the call to crash.*; it will be started again on next use$/)
    expect(seen[2]).toEqual([expect.objectContaining({ name: 'fixture', status: 'failed', source: 'dynamic' })])
    expect(second).toBeGreaterThan(0)
    expect(second).not.toBe(first)
    expect([first, second].filter(isAlive)).toEqual([])
  })

  it('reports a result that is not a CallToolResult as that server\'s error, and keeps the server running', async () => {
    const seen: unknown[] = []
    const raw = { command: process.execPath, args: [fileURLToPath(new URL('./fixtures/raw-server.mjs', import.meta.url))] }
    const run = await runScript([
      { reply: [use('mcp__raw__pid', { valid: true })] },
      { reply: [use('mcp__raw__pid')] },
      { reply: [use('mcp__raw__pid', { valid: true })] },
      { reply: 'done' },
    ], 'go', { cwd: dirs.project, mods: [toolsMod(), mcp({ home: dirs.home, servers: { raw } }), statusProbe(seen)] })
    const first = Number(resultText(toolResults(run.requests, 1)[0]!))
    const bad = toolResults(run.requests, 2)[0]!
    expect(bad.is_error).toBe(true)
    expect(resultText(bad)).toMatch(/^MCP server "raw" returned a malformed result for pid: content: .*expected array/)
    expect(resultText(bad)).not.toContain('\n')
    // The same process answers the next call: nothing was wrong with the connection.
    expect(seen[2]).toEqual([expect.objectContaining({ name: 'raw', status: 'connected', source: 'dynamic' })])
    expect(Number(resultText(toolResults(run.requests, 3)[0]!))).toBe(first)
  })

  it('keeps the first of two tools whose names are one to the model, and says the other is left out', async () => {
    const raw = { command: process.execPath, args: [fileURLToPath(new URL('./fixtures/raw-server.mjs', import.meta.url))] }
    const logged: string[] = []
    const run = await runScript([{ reply: [use('mcp__raw__dup_name')] }, { reply: 'done' }], 'go', {
      cwd: dirs.project, log: (line: string) => logged.push(line), mods: [toolsMod(), mcp({ home: dirs.home, servers: { raw } })],
    })
    expect(names(run.requests[0]!).filter((n) => n.startsWith('mcp__raw__dup'))).toEqual(['mcp__raw__dup_name'])
    expect(resultText(toolResults(run.requests, 1)[0]!)).toBe('dup.name')
    expect(logged.join('\n')).toContain('raw: tool "dup_name" is left out: its name mcp__raw__dup_name is also the name of its tool "dup.name"')
  })

  it('refreshes the tool list on notifications/tools/list_changed', async () => {
    const run = await runScript([
      { reply: [use('mcp__fixture__grow')] },
      { reply: [use('mcp__fixture__late')] },
      { reply: 'done' },
    ], 'go', { cwd: dirs.project, mods: [toolsMod(), mcp({ home: dirs.home, servers: { fixture: stdio() } })] })
    expect(names(run.requests[0]!)).toContain('mcp__fixture__gone')
    expect(names(run.requests[0]!)).not.toContain('mcp__fixture__late')
    expect(names(run.requests[1]!)).toContain('mcp__fixture__late')
    expect(names(run.requests[1]!)).not.toContain('mcp__fixture__gone')
    expect(resultText(toolResults(run.requests, 2)[0]!)).toBe('late tool here')
  })

  it('headless, the first prompt waits for a server still connecting, as Claude Code does: its tools are in the first request', async () => {
    const run = await runScript([
      { reply: [use('mcp__slow__echo', { text: 'at once' })] },
      { reply: 'done' },
    ], 'go', {
      cwd: dirs.project,
      mods: [toolsMod(), mcp({ home: dirs.home, startupTimeoutMs: 200, servers: { slow: stdio({ env: { FIXTURE_DELAY_MS: '600' } }) } })],
    })
    expect(initOf(run.messages).mcp_servers).toEqual([{ name: 'slow', status: 'connected', source: 'dynamic' }])
    expect(names(run.requests[0]!)).toContain('mcp__slow__echo')
    expect(resultText(toolResults(run.requests, 1)[0]!)).toBe('echo: at once')
  })

  it('interactive, does not hold the first prompt past startupTimeoutMs: a slow server is pending, its tools arrive later', async () => {
    const started = Date.now()
    let firstTurnAt = 0
    // A tool that returns once the slow server is connected, so the next request can be checked.
    const waiter = defineMod({
      name: 'waiter',
      uses: { serverStatus: 'required' },
      register(on) {
        on('turn.start', (_$, e, next) => { firstTurnAt ||= Date.now() - started; return next(e) })
        on('session.start', async ($, e, next) => {
          await $.tool.register({
            name: 'AwaitServers', description: 'Wait for the MCP servers', inputSchema: { type: 'object' },
            call: async () => {
              const isReady = () => ($.capability.use('serverStatus')?.() ?? []).every((s) => s.status === 'connected')
              for (let i = 0; i < 250 && !isReady(); i++) await new Promise((r) => setTimeout(r, 20))
              return { result: isReady() ? 'ready' : 'still pending' }
            },
          } as never)
          return next(e)
        })
      },
    })
    const run = await runScript([
      { reply: [use('AwaitServers')] },
      { reply: [use('mcp__slow__echo', { text: 'at last' })] },
      { reply: 'done' },
    ], 'go', {
      cwd: dirs.project, isInteractive: true,
      mods: [toolsMod(), mcp({ home: dirs.home, startupTimeoutMs: 200, servers: { slow: stdio({ env: { FIXTURE_DELAY_MS: '600' } }) } }), waiter],
    })
    expect(initOf(run.messages).mcp_servers).toEqual([{ name: 'slow', status: 'pending', source: 'dynamic' }])
    expect(firstTurnAt).toBeGreaterThan(0)
    expect(names(run.requests[0]!)).not.toContain('mcp__slow__echo')
    expect(resultText(toolResults(run.requests, 1)[0]!)).toBe('ready')
    expect(names(run.requests[1]!)).toContain('mcp__slow__echo')
    expect(resultText(toolResults(run.requests, 2)[0]!)).toBe('echo: at last')
  })

  it('ends a server that is still starting when the session ends, without waiting for it', async () => {
    const pidFile = join(dirs.project, 'starting.pid')
    // The turn waits for the process to exist (it writes its pid first thing), so there is one to end.
    const spawned = defineMod({
      name: 'spawned',
      register: (on) => on('turn.start', async (_$, e, next) => {
        for (let i = 0; i < 150 && !existsSync(pidFile); i++) await new Promise((r) => setTimeout(r, 20))
        return next(e)
      }),
    })
    // Interactive: a headless first prompt would wait for the server (up to MCP_TIMEOUT).
    const run = await runScript([{ reply: 'ok' }], 'go', {
      cwd: dirs.project, isInteractive: true, mods: [toolsMod(), mcp({ home: dirs.home, startupTimeoutMs: 100, servers: { late: stdio({ env: { FIXTURE_DELAY_MS: '60000', FIXTURE_PID_FILE: pidFile } }) } }), spawned],
    })
    // The server would take 60 s to start, past the test's own timeout: the run ending at all is the startup timeout at work.
    expect(initOf(run.messages).mcp_servers).toEqual([{ name: 'late', status: 'pending', source: 'dynamic' }])
    expect(isAlive(Number(await readFile(pidFile, 'utf8')))).toBe(false)
  })

  it('kills a server that ignores its closed stdin and SIGTERM when the session ends', async () => {
    const run = await runScript([{ reply: [use('mcp__stubborn__pid')] }, { reply: 'done' }], 'go', {
      cwd: dirs.project, mods: [toolsMod(), mcp({ home: dirs.home, servers: { stubborn: stdio({ env: { FIXTURE_STUBBORN: '1' } }) } })],
    })
    const pid = Number(resultText(toolResults(run.requests, 1)[0]!))
    expect(pid).toBeGreaterThan(0)
    // It ignores closed stdin and SIGTERM for good: the run ending at all is the SIGKILL at work.
    expect(isAlive(pid)).toBe(false)
  })
})
