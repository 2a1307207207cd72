import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { systemText } from '../helpers/system-text.js'

let dir: string
beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-headless-')))
  await writeFile(join(dir, 'tools.mjs'), `import { z } from 'zod'
export function register(on) {
  on('session.start', async ($, e, next) => {
    await $.tool.register({ name: 'Echo', description: 'Echo', input: z.object({ text: z.string() }), isReadOnly: true, call: (i) => ({ result: i.text }) })
    return next(e)
  })
}
`)
  await writeFile(join(dir, 'modloop.config.json'), JSON.stringify({ mods: ['./tools.mjs'] }))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

const cli = (args: string[], script: unknown, stdin?: string) => runCli(args, { script, cwd: dir, stdin })

const toolTurn = [{ reply: [{ text: 'echoing' }, { tool_use: { name: 'Echo', input: { text: 'hi' } } }] }, { reply: 'all done' }]

describe('modloop -p', () => {
  it('text: prints the answer, exit 0', async () => {
    const r = await cli(['-p', 'say', 'hello'], [{ reply: 'hello!' }])
    expect(r).toMatchObject({ code: 0, out: 'hello!\n' })
    expect((r.requests[0]!.body as any).messages[0].content[0].text).toBe('say hello')
  })

  it('json: prints the result object', async () => {
    const r = await cli(['-p', 'go', '--output-format', 'json'], toolTurn)
    const result = JSON.parse(r.out)
    expect(result).toMatchObject({ type: 'result', subtype: 'success', is_error: false, result: 'all done', num_turns: 2, terminal_reason: 'completed' })
    for (const key of ['duration_ms', 'duration_api_ms', 'total_cost_usd', 'usage', 'modelUsage', 'stop_reason', 'permission_denials', 'session_id', 'uuid']) expect(result).toHaveProperty(key)
  })

  it('json with --verbose: every message in one JSON array, the result last', async () => {
    const r = await cli(['-p', 'go', '--output-format', 'json', '--verbose'], toolTurn)
    expect(r.code).toBe(0)
    const all = JSON.parse(r.out)
    expect(all.map((l: any) => `${l.type}${l.subtype ? `/${l.subtype}` : ''}`)).toEqual(['system/init', 'assistant', 'assistant', 'user', 'assistant', 'result/success'])
    expect(all.at(-1)).toMatchObject({ result: 'all done' })
  })

  it('stream-json: one message per line, in the shapes consumers read', async () => {
    const r = await cli(['-p', 'go', '--output-format', 'stream-json', '--verbose'], toolTurn)
    const lines = r.out.trim().split('\n').map((l) => JSON.parse(l))
    expect(lines.map((l) => `${l.type}${l.subtype ? `/${l.subtype}` : ''}`)).toEqual(['system/init', 'assistant', 'assistant', 'user', 'assistant', 'result/success'])
    const [init, text, toolUse, user, answer, result] = lines
    expect(init).toMatchObject({ cwd: dir, tools: ['Echo'], model: expect.any(String), permissionMode: 'default', session_id: expect.any(String), uuid: expect.any(String) })
    expect(text.message).toMatchObject({ role: 'assistant', type: 'message', content: [{ type: 'text', text: 'echoing' }] })
    expect(toolUse.message.content[0]).toMatchObject({ type: 'tool_use', name: 'Echo', input: { text: 'hi' }, id: expect.any(String) })
    expect(toolUse).toMatchObject({ parent_tool_use_id: null })
    expect(user).toMatchObject({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse.message.content[0].id, content: 'hi' }] }, parent_tool_use_id: null, tool_use_result: 'hi' })
    expect(answer.message.content[0]).toEqual({ type: 'text', text: 'all done', citations: null })
    expect(result).toMatchObject({ type: 'result', subtype: 'success', result: 'all done' })
    expect(new Set(lines.map((l) => l.session_id)).size).toBe(1)
  })

  it('stream-json with --include-partial-messages carries stream_event lines', async () => {
    const r = await cli(['-p', 'go', '--output-format', 'stream-json', '--verbose', '--include-partial-messages'], [{ reply: 'hi' }])
    const types = r.out.trim().split('\n').map((l) => JSON.parse(l).type)
    expect(types).toContain('stream_event')
  })

  it('reads the prompt from stdin when -p has none', async () => {
    const r = await cli(['-p'], [{ reply: 'from stdin', expect: { lastUserText: 'piped prompt' } }], 'piped prompt')
    expect(r).toMatchObject({ code: 0, out: 'from stdin\n' })
  })

  it('exit 1 on an error result; --max-turns reaches error_max_turns', async () => {
    const r = await cli(['-p', 'go', '--max-turns', '1', '--output-format', 'json'], toolTurn)
    expect(r.code).toBe(1)
    expect(JSON.parse(r.out)).toMatchObject({ subtype: 'error_max_turns', terminal_reason: 'max_turns', num_turns: 2 })
  })

  it('an API error counts the failed request among num_turns', async () => {
    const r = await cli(['-p', 'go', '--output-format', 'json'], [toolTurn[0], { error: { status: 401, type: 'authentication_error' } }])
    expect(r.code).toBe(1)
    expect(JSON.parse(r.out)).toMatchObject({ is_error: true, terminal_reason: 'api_error', api_error_status: 401, num_turns: 2 })
  })

  it('exit 1 on bad usage, as Claude Code exits', async () => {
    expect((await cli(['-p', 'go', '--output-format', 'xml'], [])).code).toBe(1)
    expect((await cli(['-p', 'go', '--max-turns', 'many'], [])).code).toBe(1)
    expect((await cli(['-p', 'go', '--no-such-flag'], [])).code).toBe(1)
    expect((await cli(['-p', '--permission-mode', 'yolo', 'go'], [])).code).toBe(1)
  })

  it('--system-prompt, --append-system-prompt and --model shape the request', async () => {
    const r = await cli(['-p', 'go', '--system-prompt', 'Be terse.', '--append-system-prompt', 'Use British spelling.', '--model', 'claude-haiku-5-5'], [{ reply: 'ok', expect: { model: 'claude-haiku-5-5' } }])
    expect(r.code).toBe(0)
    expect(systemText(r.requests[0]!.body as any)).toBe('Be terse.\n\nUse British spelling.')
  })

  it('--model and --fallback-model take an alias: the request names its model id', async () => {
    const r = await cli(['-p', 'go', '--model', 'sonnet', '--fallback-model', 'haiku', '--output-format', 'json'], [
      { reply: 'no', stop_reason: 'refusal', expect: { model: 'claude-sonnet-5-5' } },
      { reply: 'ok', expect: { model: 'claude-haiku-5-5' } },
    ])
    expect(r.code, r.err).toBe(0)
    expect(JSON.parse(r.out)).toMatchObject({ result: 'ok' })
  })

  it('--mod adds a mod for this run', async () => {
    await writeFile(join(dir, 'shout.mjs'), `export function register(on) {
  on('turn.step', async function* ($, e, next) {
    const s = next(e)
    for await (const c of s) yield c.kind === 'text' ? { ...c, text: c.text.toUpperCase() } : c
    return await s.result
  })
}
`)
    const r = await cli(['-p', 'go', '--mod', './shout.mjs'], [{ reply: 'quiet' }])
    expect(r.out).toBe('QUIET\n')
  })
})
