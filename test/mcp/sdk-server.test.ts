import { z } from 'zod'
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest'
import { createSdkMcpServer, tool, type QueryOptions } from '../../index.js'
import { runScript, toolsMod } from '../loop/helpers.js'
import { initOf, mcp, resultText, tempDirs, toolResults } from './helpers.js'

let dirs: Awaited<ReturnType<typeof tempDirs>>
beforeAll(async () => { dirs = await tempDirs() })
afterAll(() => dirs.remove())

const calls: string[] = []
const calc = createSdkMcpServer({
  name: 'calc',
  version: '2.0.0',
  tools: [
    tool('add', 'Add two numbers', { a: z.number(), b: z.number() }, async ({ a, b }) => {
      expectTypeOf(a).toEqualTypeOf<number>()
      calls.push(`add ${a} ${b}`)
      return { content: [{ type: 'text', text: String(a + b) }] }
    }, { annotations: { readOnlyHint: true } }),
    tool('explode', 'Always throws', {}, async () => {
      throw new Error('boom inside the handler')
    }),
  ],
})

describe('in-process MCP servers (createSdkMcpServer)', () => {
  it('serves tool() definitions through the real protocol from query() mcpServers', async () => {
    const options: QueryOptions = { cwd: dirs.project, mods: [toolsMod(), mcp({ home: dirs.home })], mcpServers: { calc } }
    const run = await runScript([
      { reply: [{ tool_use: { name: 'mcp__calc__add', input: { a: 2, b: 3 } } }, { tool_use: { name: 'mcp__calc__explode', input: {} } }, { tool_use: { name: 'mcp__calc__add', input: { a: 'two' } } }] },
      { reply: 'done' },
    ], 'go', options)
    const tools = run.requests[0]!.body.tools as { name: string; input_schema: unknown }[]
    expect(tools.find((t) => t.name === 'mcp__calc__add')!.input_schema).toMatchObject({ type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] })
    expect(initOf(run.messages).mcp_servers).toEqual([{ name: 'calc', status: 'connected', source: 'sdk' }])
    const [sum, explode, invalid] = toolResults(run.requests, 1)
    expect(resultText(sum!)).toBe('5')
    expect(explode).toMatchObject({ is_error: true })
    expect(resultText(explode!)).toContain('boom inside the handler')
    expect(invalid).toMatchObject({ is_error: true })
    expect(calls).toEqual(['add 2 3'])
  })

  it('gives each session its own server, so one config serves query after query', async () => {
    const again = await runScript([{ reply: [{ tool_use: { name: 'mcp__calc__add', input: { a: 1, b: 1 } } }] }, { reply: 'done' }], 'go', {
      cwd: dirs.project, mods: [toolsMod(), mcp({ home: dirs.home })], mcpServers: { calc },
    })
    expect(resultText(toolResults(again.requests, 1)[0]!)).toBe('2')
    expect(calc).toMatchObject({ type: 'sdk', name: 'calc' })
  })
})
