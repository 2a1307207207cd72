import { existsSync } from 'node:fs'
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ManualClock } from '../../testing/manual-clock.js'
import { line, streamSession } from '../helpers/stream-session.js'

let dir: string
beforeAll(async () => { dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-progress-cli-'))) })
afterAll(() => rm(dir, { recursive: true, force: true }))

const SIDE = 'side job: count the notes'

describe('agentProgressSummaries through the SDK transport', () => {
  it('initialize\'s agentProgressSummaries: a running subagent\'s task_progress carries a summary from a request over its conversation', async () => {
    // The project's config hands the agent mod a clock the test moves (the CLI runs in this process).
    const clock = new ManualClock(Date.UTC(2026, 0, 5, 10))
    ;(globalThis as { __progressClock?: ManualClock }).__progressClock = clock
    await writeFile(join(dir, 'modloop.config.mjs'), 'export default { extends: \'modloop\', mods: [[\'agent\', { clock: globalThis.__progressClock }]] }\n')
    // The subagent's command waits for a file the test writes once it has seen the summary.
    const waitFor = join(dir, 'go')
    const on = (m: any, stdin: PassThrough) => {
      if (m.type === 'system' && m.subtype === 'task_progress') {
        if (m.summary) void writeFile(waitFor, '')
        else clock.runNext()
      }
      if (m.type === 'result') stdin.end()
    }
    const s = await streamSession([
      { reply: 'Counting the notes', when: { lastUserText: '[Progress summary]' } },
      { reply: [{ tool_use: { id: 'toolu_agent', name: 'Agent', input: { description: 'count the notes', prompt: SIDE, run_in_background: false } } }] },
      { reply: [{ tool_use: { id: 'toolu_wait', name: 'Bash', input: { command: `while [ ! -f '${waitFor}' ]; do sleep 0.05; done`, description: 'wait for the notes' } } }], when: { firstUserText: SIDE } },
      { reply: '3 notes', when: { firstUserText: SIDE } },
      { reply: 'done' },
    ], ['--permission-mode', 'bypassPermissions'], on, dir, { HOME: dir, MODLOOP_HOME: join(dir, 'home') })
    const { server, out } = s
    try {
      s.stdin.write(line({ type: 'control_request', request_id: 'init', request: { subtype: 'initialize', agentProgressSummaries: true } }))
      s.stdin.write(line({ type: 'user', session_id: '', message: { role: 'user', content: [{ type: 'text', text: 'go' }] }, parent_tool_use_id: null }))
      expect(await s.code).toBe(0)
    } finally {
      await server.close()
      delete (globalThis as { __progressClock?: ManualClock }).__progressClock
    }
    const err = s.err()
    expect(err).not.toContain('not honoured')
    expect(existsSync(waitFor)).toBe(true)
    const progress = out.filter((m) => m.type === 'system' && m.subtype === 'task_progress')
    expect(progress.map((m) => [m.description, m.summary])).toEqual([['Running wait for the notes', undefined], ['Running wait for the notes', 'Counting the notes']])
    expect(progress[1]).toMatchObject({ tool_use_id: 'toolu_agent', last_tool_name: 'Bash', usage: { tool_uses: 1, duration_ms: 30_000 }, session_id: out.find((m) => m.subtype === 'init').session_id })
    expect(out.at(-1)).toMatchObject({ type: 'result', result: 'done' })
    const asks = server.requests.filter((q) => JSON.stringify((q.body as any).messages.at(-1)).includes('[Progress summary]'))
    expect(asks).toHaveLength(1)
  })
})
