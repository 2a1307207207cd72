import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runScript, toolsMod } from '../loop/helpers.js'
import { initOf, mcp, stdio, tempDirs } from './helpers.js'

let dirs: Awaited<ReturnType<typeof tempDirs>>
beforeAll(async () => { dirs = await tempDirs() })
afterAll(() => dirs.remove())

const lastUserText = (body: any): string => {
  const content = body.messages.at(-1).content
  return typeof content === 'string' ? content : content.filter((b: any) => b.type === 'text').map((b: any) => b.text).join('\n')
}

describe('MCP prompts', () => {
  it('are slash commands /mcp__<server>__<prompt>: the words typed fill the arguments one each, in order', async () => {
    const run = await runScript([{ reply: 'ok' }], '/mcp__fixture__greet Ada warmly and briefly', { cwd: dirs.project, mods: [toolsMod(), mcp({ home: dirs.home, servers: { fixture: stdio() } })] })
    expect((initOf(run.messages) as any).slash_commands).toContain('mcp__fixture__greet')
    expect(lastUserText(run.requests[0]!.body)).toContain('Greet Ada, warmly.')
    expect(lastUserText(run.requests[0]!.body)).not.toContain('/mcp__fixture__greet')
  })
})
