import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import toolSearch from '../../mods/tool-search/index.js'
import { runScript, toolsMod } from '../loop/helpers.js'
import { initOf, mcp, resultText, stdio, tempDirs, toolResults } from './helpers.js'

let dirs: Awaited<ReturnType<typeof tempDirs>>
beforeAll(async () => { dirs = await tempDirs() })
afterAll(async () => { await dirs.remove() })

const use = (name: string, input: Record<string, unknown> = {}) => ({ tool_use: { name, input } })
type Def = { name: string; defer_loading?: boolean; input_schema: any }
const toolsOf = (r: { body: any }) => (r.body.tools as Def[])
// The run's requests are typed by body only; the fake server records headers too.
const beta = (r: unknown) => String((r as { headers: Record<string, unknown> }).headers['anthropic-beta'] ?? '')
const names = (r: { body: any }) => toolsOf(r).map((t) => t.name + (t.defer_loading ? '(deferred)' : ''))
const run = (script: unknown[], env: Record<string, string>, server: Record<string, unknown> = {}) =>
  runScript(script, 'go', { cwd: dirs.project, env, mods: [toolsMod(), mcp({ home: dirs.home, servers: { fixture: stdio(server) } }), toolSearch] })

describe('tool search', () => {
  it('sends MCP tools by name only, loads them through ToolSearch, and a loaded tool is called', async () => {
    const r = await run([
      { reply: [use('ToolSearch', { query: 'select:mcp__fixture__echo,mcp__fixture__nope' })] },
      { reply: [use('mcp__fixture__echo', { text: 'hi' })] },
      { reply: 'done' },
    ], { ENABLE_TOOL_SEARCH: 'true' })
    const [first, second, third] = r.requests
    expect(beta(first)).toContain('advanced-tool-use-2025-11-20')
    expect(names(first!).filter((n) => n.includes('mcp__') || n.includes('Deferred'))).toEqual(['DeferredToolPlaceholder(deferred)'])
    expect(names(first!)).toContain('ToolSearch')
    const announced = JSON.stringify(first!.body.messages[0].content[0])
    expect(announced).toContain('mcp__fixture__echo\\nmcp__fixture__fail')
    // The result references the tool; the next request carries its schema, deferred, at the end.
    expect(toolResults(r.requests, 1)[0]!.content).toEqual([{ type: 'tool_reference', tool_name: 'mcp__fixture__echo' }])
    expect(names(second!).slice(0, -1)).toEqual(names(first!))
    expect(toolsOf(second!).at(-1)).toMatchObject({ name: 'mcp__fixture__echo', defer_loading: true, input_schema: { properties: { text: { type: 'string' } } } })
    expect(resultText(toolResults(r.requests, 2)[0]!)).toBe('echo: hi')
    expect(names(third!)).toEqual(names(second!))
    expect(initOf(r.messages).tools).toEqual(expect.arrayContaining(['ToolSearch', 'mcp__fixture__echo']))
  })

  it('ranks a keyword search, honours +required and max_results, and says when nothing matches', async () => {
    const r = await run([
      { reply: [use('ToolSearch', { query: 'echo text' })] },
      { reply: [use('ToolSearch', { query: '+fixture wait', max_results: 2 })] },
      { reply: [use('ToolSearch', { query: 'zzzqqq' })] },
      { reply: 'done' },
    ], { ENABLE_TOOL_SEARCH: 'true' })
    const refs = (i: number) => (toolResults(r.requests, i)[0]!.content as { tool_name: string }[]).map((b) => b.tool_name)
    expect(refs(1)[0]).toBe('mcp__fixture__echo')
    expect(refs(2)).toEqual(['mcp__fixture__wait', 'mcp__fixture__ask'])
    expect(toolResults(r.requests, 3)[0]!.content).toBe('No matching deferred tools found')
    expect(names(r.requests[3]!).filter((n) => n.startsWith('mcp__'))).toEqual(['mcp__fixture__echo(deferred)', 'mcp__fixture__wait(deferred)', 'mcp__fixture__ask(deferred)'])
  })

  it.each([
    ['ENABLE_TOOL_SEARCH=false', { ENABLE_TOOL_SEARCH: 'false' }, {}],
    ['unset, through a base URL not Anthropic\'s', {}, {}],
    ['auto, when the schemas fit in 10% of the context', { ENABLE_TOOL_SEARCH: 'auto' }, {}],
    ['the server set to alwaysLoad', { ENABLE_TOOL_SEARCH: 'true' }, { alwaysLoad: true }],
  ])('sends every schema upfront with %s', async (_what, env: Record<string, string>, server: Record<string, unknown>) => {
    const r = await run([{ reply: 'done' }], env, server)
    const tools = toolsOf(r.requests[0]!)
    expect(tools.map((t) => t.name)).toContain('mcp__fixture__echo')
    expect(tools.some((t) => t.defer_loading || t.name === 'ToolSearch')).toBe(false)
    expect(beta(r.requests[0])).not.toContain('advanced-tool-use')
  })

  it('defers under auto:N when the schemas take more than N% of the context window', async () => {
    const r = await run([{ reply: 'done' }], { ENABLE_TOOL_SEARCH: 'auto:0' })
    expect(names(r.requests[0]!)).toContain('DeferredToolPlaceholder(deferred)')
    expect(names(r.requests[0]!).some((n) => n.startsWith('mcp__'))).toBe(false)
  })
})
