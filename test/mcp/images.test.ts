import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defineMod } from '../../core/mod/define.js'
import { runScript, toolsMod } from '../loop/helpers.js'
import { mcp, startHttpFixture, stdio, tempDirs, toolResults } from './helpers.js'

let http: Awaited<ReturnType<typeof startHttpFixture>>
let dirs: Awaited<ReturnType<typeof tempDirs>>
beforeAll(async () => {
  http = await startHttpFixture()
  dirs = await tempDirs()
})
afterAll(async () => {
  await http.close()
  await dirs.remove()
})

const use = (name: string, input: Record<string, unknown> = {}) => ({ tool_use: { name, input } })
const PNG = Buffer.from('not really a png').toString('base64')
const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } }

describe('images in MCP tool results', () => {
  it('reach the model as image blocks, in place among the text; other tools still send plain text', async () => {
    const run = await runScript([
      { reply: [use('mcp__fixture__image'), use('mcp__web__image'), use('Echo', { text: 'plain' })] },
      { reply: 'seen' },
    ], 'go', { cwd: dirs.project, mods: [toolsMod(), mcp({ home: dirs.home, servers: { fixture: stdio(), web: { type: 'http', url: http.url } } })] })
    const [overStdio, overHttp, echo] = toolResults(run.requests, 1)
    const expected = [
      { type: 'text', text: 'a chart' },
      image,
      { type: 'text', text: '[Resource: file:///notes.txt (text/plain)]\nthe notes' },
    ]
    expect(overStdio!.content).toEqual(expected)
    expect(overHttp!.content).toEqual(expected)
    expect(echo!.content).toBe('plain')
    // Hooks and the caller still see the server's own blocks.
    const shown = run.messages.find((m: any) => m.type === 'user' && m.tool_use_result?.[1]?.type === 'image') as any
    expect(shown.tool_use_result[1]).toEqual({ type: 'image', data: PNG, mimeType: 'image/png' })
  })

  it('a tool.call handler that puts another text in place keeps the images after it', async () => {
    const shorten = defineMod({
      name: 'shorten',
      register: (on) => on('tool.call', async (_$, e, next) => {
        const r = await next(e)
        return 'deny' in r ? r : { ...r, text: 'summarised' }
      }),
    })
    const run = await runScript([{ reply: [use('mcp__fixture__image')] }, { reply: 'seen' }], 'go', {
      cwd: dirs.project, mods: [toolsMod(), mcp({ home: dirs.home, servers: { fixture: stdio() } }), shorten],
    })
    expect(toolResults(run.requests, 1)[0]!.content).toEqual([{ type: 'text', text: 'summarised' }, image])
  })
})
