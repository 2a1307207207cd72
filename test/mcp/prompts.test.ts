import { readFile } from 'node:fs/promises'
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
    // Led by the header naming the command, as a command from a file is.
    expect(run.requests[0]!.body.messages.at(-1).content[0].text).toBe('<command-message>mcp__fixture__greet</command-message>\n<command-name>/mcp__fixture__greet</command-name>\n<command-args>Ada warmly and briefly</command-args>\n')
  })

  it("send a prompt's images to the model and name its resources by server and URI, saving binary content", async () => {
    const run = await runScript([{ reply: 'ok' }], '/mcp__fixture__brief', { cwd: dirs.project, mods: [toolsMod(), mcp({ home: dirs.home, servers: { fixture: stdio() } })] })
    const content = run.requests[0]!.body.messages.at(-1).content
    expect(content.filter((b: any) => b.type === 'image')).toEqual([{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: expect.stringMatching(/^iVBOR/) } }])
    const text = lastUserText(run.requests[0]!.body)
    expect(text).toContain('Read the brief.')
    expect(text).toMatch(/\[Image: source: \S+\.png\]/)
    expect(text).toContain('[Resource from fixture at file:///brief.txt] the brief')
    const saved = /\[Resource from fixture at db:\/\/dump\] Binary content \(application\/octet-stream, 3 bytes\) saved to (\S+\.bin)/.exec(text)?.[1]
    expect([...(await readFile(saved!))]).toEqual([0, 1, 2])
  })

  it('answer a command typed without a required argument with its usage, as Claude Code does, without asking the server', async () => {
    const run = await runScript([], '/mcp__fixture__greet', { cwd: dirs.project, mods: [toolsMod(), mcp({ home: dirs.home, servers: { fixture: stdio() } })] })
    expect(run.result).toMatchObject({ is_error: false, result: 'Error: Missing required argument: who. Usage: /mcp__fixture__greet who how' })
    expect(run.requests).toEqual([])
  })
})
