import { mkdtemp, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SDKMessage } from '../../core/loop/messages.js'
import { ManualClock } from '../../testing/manual-clock.js'
import { query } from '../../entry.js'
import { startFakeAnthropic } from '../helpers/fake-anthropic.js'
import { channel } from '../helpers/channel.js'
import { gates, lastUserText, system, type TaskRun } from '../tasks/helpers.js'

let cwd: string
beforeAll(async () => {
  cwd = await realpath(await mkdtemp(join(tmpdir(), 'modloop-progress-')))
})
afterAll(() => rm(cwd, { recursive: true, force: true }))

const SIDE = 'side job: count the notes'
const agentCall = (background: boolean) => ({ tool_use: { id: 'toolu_agent', name: 'Agent', input: { description: 'count the notes', prompt: SIDE, run_in_background: background } } })
const sub = (reply: unknown) => ({ reply, when: { firstUserText: SIDE } })
const gate = (label: string) => [{ tool_use: { id: `toolu_gate_${label}`, name: 'Gate', input: { label } } }]
// Listed first, so the fork (whose first user text is the subagent's prompt too) takes it rather than the subagent's steps.
const summaryStep = (text: string) => ({ reply: text, when: { lastUserText: '[Progress summary]' } })
const isSummaryAsk = (body: any) => lastUserText(body).includes('[Progress summary]')

const options = (clock: ManualClock, extra: Record<string, unknown> = {}) => ({
  cwd, mods: [['agent', { clock }], 'tasks'] as never, env: { MODLOOP_HOME: join(cwd, '.home') }, agentProgressSummaries: true, ...extra,
})

/**
 * The subagent calls Gate, and waits there until the test opens it: while it waits the test runs
 * the clock's timer (the 30 s tick) and watches the stream. `onProgress` hears each task_progress
 * and the requests the server has had so far.
 */
async function run(script: unknown[], clock: ManualClock, onProgress: (m: Record<string, any>, open: (label: string) => void, requests: { body: any }[]) => unknown, extra?: Record<string, unknown>, input?: { prompt: AsyncIterable<any>; onResult: (m: Record<string, any>, open: (label: string) => void) => void }): Promise<TaskRun> {
  const g = gates()
  const o = options(clock, extra)
  const server = await startFakeAnthropic({ script })
  const messages: SDKMessage[] = []
  let error: unknown
  try {
    const q = query({ prompt: input?.prompt ?? 'go', options: { bare: true, ...o, mods: [...(o.mods as unknown[]), g.mod] as never, env: { ...process.env, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test', ...o.env } } })
    for await (const m of q) {
      messages.push(m)
      if (m.type === 'system' && m.subtype === 'task_progress') await onProgress(m as Record<string, any>, g.open, server.requests)
      if (m.type === 'result') input?.onResult(m as Record<string, any>, g.open)
    }
  } catch (err) {
    error = err
  } finally {
    await server.close()
  }
  return { messages, results: messages.filter((m) => m.type === 'result') as TaskRun['results'], requests: server.requests, error, kinds: [] }
}

/** Resolves once `ready` holds, looking again after each turn of the event loop. */
async function until(ready: () => boolean): Promise<void> {
  while (!ready()) await new Promise((r) => setImmediate(r))
}

describe('agentProgressSummaries', () => {
  it('a running foreground subagent is summarised on the clock\'s tick: a task_progress with summary, from a request over its conversation', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 5, 10))
    const r = await run([
      summaryStep('"Counting the notes."'),
      { reply: [agentCall(false)] },
      sub(gate('one')),
      sub('3 notes'),
      { reply: 'done' },
    ], clock, (m, open) => {
      if (!m.summary) return void clock.runNext()
      // Nothing new since: the next tick asks nothing; then the subagent goes on and ends.
      clock.runNext()
      open('one')
    })
    expect(r.error).toBeUndefined()
    expect(r.results.at(-1)?.result).toBe('done')
    const progress = system(r, 'task_progress')
    expect(progress.map((m) => [m.description, m.summary])).toEqual([['Gate', undefined], ['Gate', 'Counting the notes']])
    expect(progress[1]).toMatchObject({ tool_use_id: 'toolu_agent', subagent_type: 'general-purpose', last_tool_name: 'Gate', usage: { tool_uses: 1, duration_ms: 30_000 } })
    // One summary request: the subagent's own model, system prompt and tools, its conversation up to
    // the call it is in (the call has no result yet), the ask last.
    const asks = r.requests.filter((q) => isSummaryAsk(q.body))
    expect(asks).toHaveLength(1)
    const subFirst = r.requests.find((q) => !isSummaryAsk(q.body) && JSON.stringify(q.body.messages[0]).includes(SIDE))!
    expect(asks[0]!.body.model).toBe(subFirst.body.model)
    expect(asks[0]!.body.system).toEqual(subFirst.body.system)
    expect(asks[0]!.body.tools).toEqual(subFirst.body.tools)
    expect(asks[0]!.body.messages.map((m: any) => m.role)).toEqual(['user'])
    expect(JSON.stringify(asks[0]!.body.messages[0])).toContain(SIDE)
  })

  it('a background subagent is summarised too; a summary still being made when it ends is not sent, its request called off', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 5, 10))
    const r = await run([
      // Its answer never comes: the request stays open until the client calls it off.
      { reply: 'Reading the notes', when: { lastUserText: '[Progress summary]' }, stallAfter: 1 },
      { reply: [agentCall(true)] },
      { reply: 'launched' },
      sub(gate('one')),
      sub('3 notes'),
      { reply: 'noted' },
    ], clock, async (_m, open, requests) => {
      // The tick starts a summary; once it is asked, the subagent goes on and ends before its answer.
      clock.runNext()
      await until(() => requests.some((q) => isSummaryAsk(q.body)))
      open('one')
    })
    expect(r.error).toBeUndefined()
    expect(r.results.at(-1)?.result).toBe('noted')
    expect(r.requests.filter((q) => isSummaryAsk(q.body))).toHaveLength(1)
    expect(system(r, 'task_progress').map((m) => m.summary)).toEqual([undefined])
    expect(system(r, 'task_notification').map((m) => m.status)).toEqual(['completed'])
  })

  it('/tasks shows a running subagent\'s latest summary on its row', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 5, 10))
    const ch = channel()
    ch.send('go')
    const r = await run([
      summaryStep('Counting the notes in docs/'),
      { reply: [agentCall(true)] },
      { reply: 'launched' },
      sub(gate('one')),
      sub('3 notes'),
      { reply: 'noted' },
    ], clock, (m) => {
      if (!m.summary) clock.runNext()
      else ch.send('/tasks')
    }, {}, {
      prompt: ch.input,
      onResult: (m, open) => {
        if (m.local_command) open('one')
        if (m.result === 'noted') ch.close()
      },
    })
    expect(r.error).toBeUndefined()
    const listed = r.results.find((m) => m.local_command)?.result ?? ''
    expect(listed).toMatch(/^Tasks \(1, 1 running\):\n {2}a\w+ {2}subagent {2}running {2}\d+s {2}count the notes \(general-purpose\)\n {4}now: Counting the notes in docs\/\n {4}output: /)
  })

  it('without the option, or with CLAUDE_CODE_DISABLE_AGENT_PROGRESS_SUMMARIES, nothing is timed or asked', async () => {
    for (const extra of [{ agentProgressSummaries: false }, { env: { MODLOOP_HOME: join(cwd, '.home'), CLAUDE_CODE_DISABLE_AGENT_PROGRESS_SUMMARIES: '1' } }]) {
      const clock = new ManualClock(Date.UTC(2026, 0, 5, 10))
      let timers: number | undefined
      const r = await run([{ reply: [agentCall(false)] }, sub(gate('one')), sub('3 notes'), { reply: 'done' }], clock, (_m, open) => {
        timers = clock.nextAt
        open('one')
      }, extra)
      expect(r.error).toBeUndefined()
      expect(timers).toBeUndefined()
      expect(r.requests.some((q) => isSummaryAsk(q.body))).toBe(false)
      expect(r.messages.some((m) => m.type === 'system' && m.subtype === 'init')).toBe(true)
    }
  })
})
