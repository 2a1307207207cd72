import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { shapeProblems } from '../helpers/sdk-shapes.js'

let dir: string
beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-stream-shapes-')))
  await writeFile(join(dir, 'tools.mjs'), `import { z } from 'zod'
export function register(on) {
  on('session.start', async ($, e, next) => {
    await $.tool.register({ name: 'Echo', description: 'Echo', input: z.object({ text: z.string() }), isReadOnly: true, call: (i) => ({ result: i.text }) })
    await $.tool.register({ name: 'Report', description: 'Reports progress', input: z.object({}), isReadOnly: true, call: async (_i, ctx) => {
      for (let n = 0; n < 5; n++) { ctx.progress({ n }); await new Promise((r) => setTimeout(r, 5)) }
      return { result: { reported: 5 } }
    } })
    return next(e)
  })
}
`)
  await writeFile(join(dir, 'modloop.config.json'), JSON.stringify({ mods: ['./tools.mjs'] }))
  await writeFile(join(dir, 'bad.json'), JSON.stringify({ steps: [{ reply: 'ok', truncateAfter: -1 }] }))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

async function streamJson(args: string[], script: unknown) {
  const r = await runCli(['-p', 'go', '--output-format', 'stream-json', '--verbose', ...args], { script, cwd: dir, env: { MODLOOP_HOME: join(dir, 'home') } })
  const lines = r.out.trim().split('\n').map((l) => JSON.parse(l) as Record<string, any>)
  return { code: r.code, lines, kinds: lines.map((l) => `${l.type}${l.subtype ? `/${l.subtype}` : ''}`) }
}

/** Every line fits its spec shape; init opens the turn, and its one result closes it. */
function expectWellShaped(lines: Record<string, any>[]) {
  expect(shapeProblems(lines)).toEqual([])
  expect(lines.filter((l) => l.type === 'result')).toHaveLength(1)
  expect(lines.at(-1)!.type).toBe('result')
  expect(new Set(lines.map((l) => l.session_id)).size).toBe(1)
}

describe('stream-json lines against the spec\'s message shapes', () => {
  it('a run with a retry, partial messages, thinking, parallel tools and tool progress', async () => {
    const { code, lines, kinds } = await streamJson(['--include-partial-messages'], [
      { error: { status: 529 } },
      { reply: [{ thinking: 'two tools at once' }, { text: 'working' }, { tool_use: { name: 'Report', input: {} } }, { tool_use: { name: 'Echo', input: { text: 'hi' } } }] },
      { reply: 'all done' },
    ])
    expect(code).toBe(0)
    expectWellShaped(lines)
    expect(kinds[0]).toBe('system/init')
    for (const kind of ['system/api_retry', 'stream_event', 'assistant', 'tool_progress', 'user', 'result/success']) expect(kinds).toContain(kind)
    expect(lines.filter((l) => l.type === 'user')).toHaveLength(2)
  })

  it('error results: error_max_turns, a failed API call, a malformed script', async () => {
    const turns = await streamJson(['--max-turns', '1'], [{ reply: [{ tool_use: { name: 'Echo', input: { text: 'a' } } }] }, { reply: 'never' }])
    expectWellShaped(turns.lines)
    expect(turns.lines.at(-1)).toMatchObject({ subtype: 'error_max_turns', terminal_reason: 'max_turns' })

    const api = await streamJson([], [{ error: { status: 400, message: 'bad request' } }])
    expectWellShaped(api.lines)
    expect(api.lines.at(-1)).toMatchObject({ subtype: 'success', is_error: true, terminal_reason: 'api_error', api_error_status: 400 })

    const script = await streamJson(['--script', 'bad.json'], [])
    expectWellShaped(script.lines)
    expect(script.lines.at(-1)).toMatchObject({ subtype: 'error_during_execution', terminal_reason: 'turn_setup_failed' })
  })

  it('the shapes catch a wrong line', () => {
    const problems = shapeProblems([
      { type: 'system', subtype: 'api_retry', attempt: 1, max_retries: 3, retry_delay_ms: 5, error_status: 529, error: 'overloaded', message: 'x', uuid: 'u', session_id: 's' },
      { type: 'result', subtype: 'success', is_error: false, uuid: 'u', session_id: 's' },
    ])
    expect(problems.some((p) => p.startsWith('line 1 (system/api_retry): message'))).toBe(true)
    expect(problems.some((p) => p.startsWith('line 2 (result/success): result'))).toBe(true)
  })
})
