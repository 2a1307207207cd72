import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ManualClock } from '../../testing/manual-clock.js'
import { query } from '../../entry.js'
import type { SDKResultMessage } from '../../core/loop/messages.js'
import type { ModSpec } from '../../runtime/options.js'
import { startFakeAnthropic } from '../helpers/fake-anthropic.js'
import { lastSent, newProject, START } from './helpers.js'

const wakeup = (input: Record<string, unknown>) => ({ reply: [{ tool_use: { name: 'ScheduleWakeup', input } }] })
const tool = (name: string, input: Record<string, unknown>) => ({ reply: [{ tool_use: { name, input } }] })

/** A one-prompt run (what `-p` makes: query() with a string prompt) with the cron mod on `clock`; `onResult` hears each result. */
async function onePrompt(script: unknown, prompt: string, opts: { clock: ManualClock; cwd: string; mods?: ModSpec[]; maxWaitTasksMs?: number; onLog?: (line: string) => void }) {
  const server = await startFakeAnthropic({ script })
  const results: SDKResultMessage[] = []
  const log: string[] = []
  const starts: unknown[] = []
  const spy = { name: 'spy', register: (on: any) => on('session.start', (_$: unknown, e: any, next: any) => { starts.push(e.waitsForInput); return next(e) }) }
  try {
    const q = query({ prompt, options: {
      bare: true, cwd: opts.cwd, mods: [['cron', { clock: opts.clock }], spy, ...(opts.mods ?? [])], log: (l) => { log.push(l); opts.onLog?.(l) },
      ...(opts.maxWaitTasksMs !== undefined ? { maxWaitTasksMs: opts.maxWaitTasksMs } : {}),
      env: { ...process.env, HOME: opts.cwd, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 't' },
    } })
    for await (const m of q) {
      if (m.type !== 'result') continue
      results.push(m)
    }
  } finally {
    await server.close()
  }
  return { results: results.map((r) => ('result' in r ? r.result : r.subtype)), requests: server.requests as { body: any }[], log, starts }
}

describe('scheduled prompts in a one-prompt run (-p)', () => {
  it('a job that comes due during the turn is not run: it is created, listed and saved, and the run ends after its prompt', async () => {
    const clock = new ManualClock(START)
    const cwd = await newProject()
    // The job is due at 10:01 (or a little later); the turn goes on past 10:10 before it lists the jobs.
    const late = { name: 'late', register: (on: any) => on('tool.call', (_$: unknown, e: any, next: any) => {
      if (e.tool === 'CronList') clock.set(START + 10 * 60_000)
      return next(e)
    }) }
    const run = await onePrompt([
      tool('CronCreate', { cron: '* * * * *', prompt: 'tick', durable: true }), tool('CronList', {}), { reply: 'scheduled' },
    ], 'tick every minute', { clock, cwd, mods: [late] })
    expect(run.starts).toEqual([false])
    expect(run.results).toEqual(['scheduled'])
    expect(run.requests).toHaveLength(3)
    expect(lastSent(run.requests[2]!.body)[0]).toMatch(/^[0-9a-f]{8} - Every minute \(recurring\), next run .*: tick$/)
    // No timer is armed for a job that cannot run, and the saved job was never fired.
    expect(clock.nextAt).toBeUndefined()
    const file = JSON.parse(await readFile(join(cwd, '.claude', 'scheduled_tasks.json'), 'utf8'))
    expect(file.tasks).toHaveLength(1)
    expect(file.tasks[0].prompt).toBe('tick')
    expect(file.tasks[0].lastFiredAt).toBeUndefined()
  })

  it('a pending wake-up holds the run open: its round runs, and the run ends after stop: true with that turn\'s result', async () => {
    const clock = new ManualClock(START)
    const run = await onePrompt([
      wakeup({ delaySeconds: 120, reason: 'CI takes two minutes', prompt: '/loop check the build', noop: false }), { reply: 'armed' },
      wakeup({ delaySeconds: 300, reason: 'still running', prompt: '/loop check the build', noop: true }), { reply: 'still running' },
      wakeup({ stop: true }), { reply: 'the build is green: loop ended' },
    ], '/loop check the build', { clock, cwd: await newProject(), maxWaitTasksMs: 60_000, onLog: (line) => {
      // Once the run waits for the wake-up (and not before), the clock moves to it and it fires.
      if (line.startsWith('waiting while held open (cron: a ScheduleWakeup is pending)')) expect(clock.runNext()).toBe(true)
    } })
    expect(run.results).toEqual(['armed', 'still running', 'the build is green: loop ended'])
    expect(run.requests).toHaveLength(6)
    expect(lastSent(run.requests[2]!.body).join('\n')).toContain('check the build')
    expect(lastSent(run.requests[5]!.body)[0]).toMatch(/^The self-paced loop has ended: no wake-up was pending\./)
    expect(clock.nextAt).toBeUndefined()
    expect(run.log.filter((l) => l.startsWith('waiting while held open'))).toHaveLength(2)
  })

  it('the hold lasts at most the wait for tasks (--max-wait-tasks): the run then ends with its last result, the wake-up unrun', async () => {
    const clock = new ManualClock(START)
    const run = await onePrompt([
      wakeup({ delaySeconds: 600, reason: 'a long build', prompt: '/loop check the build', noop: false }), { reply: 'armed' }, { reply: 'never sent' },
    ], '/loop check the build', { clock, cwd: await newProject(), maxWaitTasksMs: 20 })
    expect(run.results).toEqual(['armed'])
    expect(run.requests).toHaveLength(2)
    expect(run.log).toContain('waiting while held open (cron: a ScheduleWakeup is pending); at most 0 s (--max-wait-tasks)')
    expect(run.log).toContain('stopped waiting after 0 s (--max-wait-tasks): what held the run open is let go')
    expect(run.log).toContainEqual(expect.stringMatching(/^cron: the ScheduleWakeup due at \d\d:\d\d:\d\d did not run: the run ended before it \(a larger --max-wait-tasks waits for it\)$/))
    // The session ended: its scheduler let go of the wake-up's timer.
    expect(clock.nextAt).toBeUndefined()
  })
})
