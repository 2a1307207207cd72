import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'

let dir: string
beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-brief-')))
  await writeFile(join(dir, 'notes.txt'), 'twelve bytes')
})
afterAll(() => rm(dir, { recursive: true, force: true }))

const cli = (args: string[], script: unknown[], env: Record<string, string> = {}) =>
  runCli(['-p', 'hi', '--output-format', 'stream-json', '--verbose', ...args], { script, cwd: dir, env: { HOME: dir, ...env }, stdin: '' })
const lines = (out: string) => out.split('\n').filter(Boolean).map((l) => JSON.parse(l))
type Body = { tools: { name: string; input_schema: { required?: string[] } }[]; system: unknown; messages: { content: unknown }[] }
const body = (r: { requests: { body: unknown }[] }, i: number) => r.requests[i]!.body as Body
const send = (input: Record<string, unknown>) => ({ reply: [{ tool_use: { name: 'SendUserMessage', input } }] })

describe('--brief turns on the SendUserMessage tool, as in Claude Code', () => {
  it('offers the tool and its prompt section; a call is delivered with its attachments, in tool_use_result', async () => {
    const r = await cli(['--brief'], [send({ message: 'All **good**.', status: 'normal', attachments: ['notes.txt'] }), { reply: 'done' }])
    expect(r.code).toBe(0)
    const tool = body(r, 0).tools.find((t) => t.name === 'SendUserMessage')
    expect(tool?.input_schema.required).toEqual(['message', 'status'])
    expect(JSON.stringify(body(r, 0).system)).toContain('## Talking to the user')
    const answered = lines(r.out).find((m) => m.type === 'user' && m.tool_use_result)
    expect(answered.message.content[0].content).toBe('Message delivered to user. (1 attachment included)')
    expect(answered.tool_use_result).toMatchObject({ message: 'All **good**.', attachments: [{ path: join(dir, 'notes.txt'), size: 12, isImage: false }] })
    expect(typeof answered.tool_use_result.sentAt).toBe('string')
    expect(r.requests).toHaveLength(2)
    expect(lines(r.out).at(-1)).toMatchObject({ type: 'result', result: 'done' })
  })

  it('a missing attachment fails the call; a turn ending without a delivered message is reminded once', async () => {
    const r = await cli(['--brief'], [send({ message: 'see', status: 'normal', attachments: ['gone.txt'] }), { reply: 'plain' }, { reply: 'still plain' }])
    expect(r.code).toBe(0)
    expect(JSON.stringify(body(r, 1).messages.at(-1))).toContain(`Attachment \\"gone.txt\\" does not exist. Current working directory: ${dir}.`)
    expect(r.requests).toHaveLength(3)
    expect(JSON.stringify(body(r, 2).messages.at(-1))).toContain('You ended the turn without a SendUserMessage call that went through')
    expect(lines(r.out).at(-1)).toMatchObject({ type: 'result', result: 'still plain' })
  })

  it('a call that fails its input after one that went through still earns the reminder: the last call decides', async () => {
    const r = await cli(['--brief'], [send({ message: 'first', status: 'normal' }), send({ message: 'no status' }), { reply: 'plain' }, { reply: 'still plain' }])
    expect(r.code).toBe(0)
    expect(r.requests).toHaveLength(4)
    expect(JSON.stringify(body(r, 3).messages.at(-1))).toContain('You ended the turn without a SendUserMessage call that went through')
  })

  it('is off without the flag, and on with CLAUDE_CODE_BRIEF=1', async () => {
    const off = await cli([], [{ reply: 'ok' }])
    expect(body(off, 0).tools.map((t) => t.name)).not.toContain('SendUserMessage')
    const env = await cli([], [send({ message: 'hi', status: 'normal' }), { reply: 'ok' }], { CLAUDE_CODE_BRIEF: '1' })
    expect(body(env, 0).tools.map((t) => t.name)).toContain('SendUserMessage')
    expect(env.requests).toHaveLength(2)
  })
})
