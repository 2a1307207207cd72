import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defineMod } from '../../core/mod/define.js'
import { runScript, toolsMod } from '../loop/helpers.js'
import { mcp, resultText, startHttpFixture, tempDirs, toolResults } from './helpers.js'

let dirs: Awaited<ReturnType<typeof tempDirs>>
beforeAll(async () => { dirs = await tempDirs() })
afterAll(() => dirs.remove())

const use = (name: string, input: Record<string, unknown> = {}) => ({ reply: [{ tool_use: { name, input } }] })

describe('an HTTP MCP server that goes away', () => {
  it('fails the call made while it is down with an error naming it, and is reconnected once it is back on its port', async () => {
    let http = await startHttpFixture()
    const port = http.port
    const seen: unknown[] = []
    // Tools the model calls to stop the server and start it again on the same port, between calls.
    const operator = defineMod({
      name: 'operator',
      uses: { serverStatus: 'required' },
      register(on) {
        on('session.start', async ($, e, next) => {
          await $.tool.register({ name: 'StopServer', description: 'Stop the MCP server', inputSchema: { type: 'object' }, call: async () => { await http.close(); return { result: 'stopped' } } } as never)
          await $.tool.register({ name: 'StartServer', description: 'Start it again', inputSchema: { type: 'object' }, call: async () => { http = await startHttpFixture(port); return { result: 'started' } } } as never)
          return next(e)
        })
        on('tool.call', ($, e, next) => {
          if (e.tool === 'mcp__web__echo') seen.push(structuredClone($.capability.use('serverStatus')?.()))
          return next(e)
        })
      },
    })
    try {
      const run = await runScript([
        use('mcp__web__echo', { text: 'before' }),
        use('StopServer'),
        use('mcp__web__echo', { text: 'while down' }),
        use('StartServer'),
        use('mcp__web__echo', { text: 'after' }),
        { reply: 'done' },
      ], 'go', { cwd: dirs.project, mods: [toolsMod(), mcp({ home: dirs.home, servers: { web: { type: 'http', url: http.url } } }), operator] })
      expect(run.result.result).toBe('done')
      expect(resultText(toolResults(run.requests, 1)[0]!)).toBe('echo: before')
      const down = toolResults(run.requests, 3)[0]!
      expect(down.is_error).toBe(true)
      expect(resultText(down)).toMatch(/^MCP server "web" could not be reached \(.+\); it will be reconnected on next use$/)
      const back = toolResults(run.requests, 5)[0]!
      expect(back.is_error).toBeUndefined()
      expect(resultText(back)).toBe('echo: after')
      // The failure was reported: the server stood as failed when the next call came.
      expect(seen.at(-1)).toEqual([expect.objectContaining({ name: 'web', status: 'failed', source: 'dynamic' })])
    } finally {
      await http.close()
    }
  })

  it('starts a new session and sends the call again when the server no longer knows the session (404), as Claude Code does', async () => {
    const http = await startHttpFixture()
    const forgetter = defineMod({
      name: 'forgetter',
      register(on) {
        on('session.start', async ($, e, next) => {
          await $.tool.register({ name: 'Forget', description: 'Make the MCP server forget its sessions', inputSchema: { type: 'object' }, call: async () => { http.forget(); return { result: 'forgotten' } } } as never)
          return next(e)
        })
      },
    })
    try {
      const run = await runScript([
        use('mcp__web__echo', { text: 'before' }),
        use('Forget'),
        use('mcp__web__echo', { text: 'after' }),
        { reply: 'done' },
      ], 'go', { cwd: dirs.project, mods: [toolsMod(), mcp({ home: dirs.home, servers: { web: { type: 'http', url: http.url } } }), forgetter] })
      expect(resultText(toolResults(run.requests, 1)[0]!)).toBe('echo: before')
      const after = toolResults(run.requests, 3)[0]!
      expect(after.is_error).toBeUndefined()
      expect(resultText(after)).toBe('echo: after')
    } finally {
      await http.close()
    }
  })
})
