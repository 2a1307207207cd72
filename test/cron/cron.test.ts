import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ManualClock } from '../../testing/manual-clock.js'
import { query } from '../../entry.js'
import { startFakeAnthropic } from '../helpers/fake-anthropic.js'
import { formatWhen, humanSchedule, nextRun } from '../../mods/cron/schedule.js'
import { gates } from '../tasks/helpers.js'
import { cronSession, DAY, lastSent, newProject, START } from './helpers.js'

const create = (input: Record<string, unknown>) => ({ reply: [{ tool_use: { name: 'CronCreate', input } }] })
const list = { reply: [{ tool_use: { name: 'CronList', input: {} } }] }
const idOf = (text: string) => /(?:job|task) ([0-9a-f]{8}) /.exec(text)![1]!

describe('scheduled prompts (CronCreate) in a live session', () => {
  it('a job that comes due while the session is idle runs its prompt as a turn of its own, the prompt as written', async () => {
    const clock = new ManualClock(START)
    const run = await cronSession([create({ cron: '*/5 * * * *', prompt: 'check the build' }), { reply: 'scheduled' }, { reply: 'the build is green' }], 'check the build every 5 minutes', { clock, cwd: await newProject() }, (_r, i, ch) => {
      if (i === 0) clock.runNext()
      else ch.close()
    })
    const created = lastSent(run.requests[1]!.body)[0]!
    const id = idOf(created)
    const at = nextRun({ id, cron: '*/5 * * * *', recurring: true }, START)!
    expect(created).toBe(`Scheduled recurring job ${id} (Every 5 minutes). Next run: ${formatWhen(at)}. Session-only (not written to disk, dies when Claude exits). Auto-expires after 30 days. Use CronDelete to cancel sooner.`)
    // Due at 10:05 and no more than half the period late.
    expect(at).toBeGreaterThanOrEqual(new Date(2026, 0, 5, 10, 5).getTime())
    expect(at).toBeLessThanOrEqual(new Date(2026, 0, 5, 10, 7, 30).getTime())
    expect(lastSent(run.requests[2]!.body)).toEqual(['check the build'])
    expect(run.results.map((r) => r.type === 'result' && 'result' in r ? r.result : '')).toEqual(['scheduled', 'the build is green'])
  })

  it('a one-shot runs once and deletes itself', async () => {
    const clock = new ManualClock(START)
    const run = await cronSession([create({ cron: '15 16 5 1 *', prompt: 'look at the deploy', recurring: false }), { reply: 'noted' }, list, { reply: 'done' }], 'at 4:15pm look at the deploy', { clock, cwd: await newProject() }, (_r, i, ch) => {
      if (i === 0) clock.runNext()
      else ch.close()
    })
    const created = lastSent(run.requests[1]!.body)[0]!
    expect(created).toBe(`Scheduled one-shot task ${idOf(created)} (15 16 5 1 *). Next run: Jan 5 4:15pm. Session-only (not written to disk, dies when Claude exits). It will fire once then auto-delete.`)
    expect(clock.now()).toBe(new Date(2026, 0, 5, 16, 15).getTime())
    expect(lastSent(run.requests[2]!.body)).toEqual(['look at the deploy'])
    expect(lastSent(run.requests[3]!.body)).toEqual(['No scheduled jobs.'])
    expect(clock.nextAt).toBeUndefined()
  })

  it('a job that comes due during a turn waits for the turn to end, then runs as a turn of its own', async () => {
    const clock = new ManualClock(START)
    const gate = gates()
    const fired: string[] = []
    const run = await cronSession([
      create({ cron: '* * * * *', prompt: 'tick' }), { reply: 'scheduled' },
      { reply: [{ tool_use: { name: 'Gate', input: { label: 'g' } } }] }, { reply: 'worked' },
      { reply: 'tock' },
    ], 'tick every minute', { clock, cwd: await newProject(), mods: [gate.mod, { name: 'watch', register: (on) => on('tool.call', (_$, e, next) => {
      // Due while the Gate call holds the turn: nothing may run until the turn ends.
      if (e.tool === 'Gate') {
        fired.push(String(clock.runNext()))
        gate.open('g')
      }
      return next(e)
    }) }] }, (_r, i, ch) => {
      if (i === 0) ch.send('do some work')
      if (i === 2) ch.close()
    })
    expect(fired).toEqual(['true'])
    // The Gate's result went back alone; the job's prompt came after the turn's answer.
    expect(lastSent(run.requests[3]!.body)).toEqual(['gate g was open'])
    expect(lastSent(run.requests[4]!.body)).toEqual(['tick'])
    expect(run.results.map((r) => 'result' in r ? r.result : '')).toEqual(['scheduled', 'worked', 'tock'])
  })

  it('CronList shows each job with its next run; CronDelete cancels one and names an unknown id', async () => {
    const clock = new ManualClock(START)
    let firstId = ''
    const idRewrite = { name: 'ids', register: (on: any) => on('tool.call', async (_$: unknown, e: any, next: any) => {
      const r = await next(e.tool === 'CronDelete' && e.id === 'FIRST' ? { ...e, id: firstId } : e)
      if (e.tool === 'CronCreate' && !firstId) firstId = r.result.id
      return r
    }) }
    const run = await cronSession([
      create({ cron: '7 * * * *', prompt: 'hourly check' }),
      create({ cron: '30 14 28 2 *', prompt: 'one shot thing', recurring: false }),
      list,
      { reply: [{ tool_use: { name: 'CronDelete', input: { id: 'nope1234' } } }] },
      { reply: [{ tool_use: { name: 'CronDelete', input: { id: 'FIRST' } } }] },
      list,
      { reply: 'done' },
    ], 'set things up', { clock, cwd: await newProject(), mods: [idRewrite] }, (_r, _i, ch) => ch.close())
    const second = idOf(lastSent(run.requests[2]!.body)[0]!)
    const hourly = formatWhen(nextRun({ id: firstId, cron: '7 * * * *', recurring: true }, START)!)
    const once = formatWhen(nextRun({ id: second, cron: '30 14 28 2 *', recurring: false }, START)!)
    expect(lastSent(run.requests[3]!.body)).toEqual([
      `${firstId} - Every hour at :07 (recurring) [session-only], next run ${hourly}: hourly check\n${second} - 30 14 28 2 * (one-shot) [session-only], next run ${once}: one shot thing`,
    ])
    expect(lastSent(run.requests[4]!.body)).toEqual(["No scheduled job with id 'nope1234'"])
    expect(run.requests[4]!.body.messages.at(-1).content[0].is_error).toBe(true)
    expect(lastSent(run.requests[5]!.body)).toEqual([`Cancelled job ${firstId}.`])
    expect(lastSent(run.requests[6]!.body)[0]).toMatch(new RegExp(`^${second} - `))
  })

  it('refuses an expression that is not 5 cron fields, or that matches no date in the next year', async () => {
    const run = await cronSession([create({ cron: 'every day', prompt: 'x' }), create({ cron: '0 0 9 * * *', prompt: 'x' }), create({ cron: '0 0 30 2 *', prompt: 'x' }), create({ cron: '0 0 L * *', prompt: 'x' }), { reply: 'ok' }], 'go', { clock: new ManualClock(START), cwd: await newProject() }, (_r, _i, ch) => ch.close())
    expect(lastSent(run.requests[1]!.body)).toEqual(["Invalid cron expression 'every day'. Expected 5 fields: M H DoM Mon DoW."])
    expect(lastSent(run.requests[2]!.body)).toEqual(["Invalid cron expression '0 0 9 * * *'. Expected 5 fields: M H DoM Mon DoW."])
    expect(lastSent(run.requests[3]!.body)).toEqual(["Cron expression '0 0 30 2 *' does not match any calendar date in the next year."])
    expect(lastSent(run.requests[4]!.body)).toEqual(["Invalid cron expression '0 0 L * *'. Expected 5 fields: M H DoM Mon DoW."])
  })

  it('a durable job is written to .claude/scheduled_tasks.json and the next session in the project takes it up', async () => {
    const cwd = await newProject()
    const clock = new ManualClock(START)
    const first = await cronSession([create({ cron: '0 9 * * 1-5', prompt: 'standup notes', durable: true }), { reply: 'saved' }], 'every weekday at 9', { clock, cwd }, (_r, _i, ch) => ch.close())
    const created = lastSent(first.requests[1]!.body)[0]!
    const id = idOf(created)
    expect(created).toContain('(Weekdays at 9:00 AM)')
    expect(created).toContain('Persisted to .claude/scheduled_tasks.json.')
    const file = JSON.parse(await readFile(join(cwd, '.claude', 'scheduled_tasks.json'), 'utf8'))
    expect(file).toEqual({ tasks: [{ id, cron: '0 9 * * 1-5', prompt: 'standup notes', createdAt: START, recurring: true, maxAgeMs: 30 * DAY }] })

    // The next morning, a new session: the job is listed as durable and runs at its time.
    clock.set(START + DAY)
    const second = await cronSession([list, { reply: 'listed' }, { reply: 'notes written' }], 'what is scheduled?', { clock, cwd }, (_r, i, ch) => {
      if (i === 0) clock.runNext()
      else ch.close()
    })
    expect(lastSent(second.requests[1]!.body)[0]).toMatch(new RegExp(`^${id} - Weekdays at 9:00 AM \\(recurring\\), next run Jan 7 `))
    expect(lastSent(second.requests[2]!.body)).toEqual(['standup notes'])
    const after = JSON.parse(await readFile(join(cwd, '.claude', 'scheduled_tasks.json'), 'utf8'))
    expect(after.tasks[0].lastFiredAt).toBe(clock.now())
  })

  it('a durable job whose file cannot be written is not said to be persisted: the answer names the file and why', async () => {
    const cwd = await newProject()
    // .claude is a file here: the jobs file under it can never be written.
    await writeFile(join(cwd, '.claude'), 'not a folder')
    const clock = new ManualClock(START)
    const run = await cronSession([create({ cron: '0 9 * * *', prompt: 'digest', durable: true }), { reply: 'ok' }], 'a daily digest, kept', { clock, cwd }, (_r, _i, ch) => ch.close())
    const created = lastSent(run.requests[1]!.body)[0]!
    expect(created).not.toContain('Persisted to')
    expect(created).toContain(`Could not write ${join(cwd, '.claude', 'scheduled_tasks.json')}`)
    expect(run.results.map((r) => r.subtype)).toEqual(['success'])
  })

  it('a jobs file that is not JSON is never written over: a durable job is not saved, the answer says why, naming the file, and it warns once', async () => {
    const cwd = await newProject()
    await mkdir(join(cwd, '.claude'))
    const file = join(cwd, '.claude', 'scheduled_tasks.json')
    // A hand edit with one syntax error (a trailing comma): its job must survive.
    const broken = '{ "tasks": [ { "id": "abcd0123", "cron": "0 9 * * *", "prompt": "kept", "createdAt": 1 }, ] }\n'
    await writeFile(file, broken)
    const clock = new ManualClock(START)
    const log: string[] = []
    const run = await cronSession([create({ cron: '0 9 * * *', prompt: 'digest', durable: true }), create({ cron: '0 10 * * *', prompt: 'later', durable: true }), { reply: 'ok' }], 'two daily jobs, kept', { clock, cwd, log: (l) => log.push(l) }, (_r, _i, ch) => ch.close())
    expect(await readFile(file, 'utf8')).toBe(broken)
    for (const i of [1, 2]) {
      const created = lastSent(run.requests[i]!.body)[0]!
      expect(created).not.toContain('Persisted to')
      expect(created).toContain(`${file} is not JSON`)
    }
    expect(log.filter((l) => l.includes(file))).toHaveLength(1)
    expect(run.results.map((r) => r.subtype)).toEqual(['success'])
  })

  it('a stored job that names no life (an older file) lives a week; its last run empties the file', async () => {
    const cwd = await newProject()
    await mkdir(join(cwd, '.claude'))
    await writeFile(join(cwd, '.claude', 'scheduled_tasks.json'), JSON.stringify({ tasks: [{ id: 'abcd0123', cron: '0 9 * * *', prompt: 'old job', createdAt: START - 8 * DAY, recurring: true }, { not: 'a job' }] }))
    const clock = new ManualClock(START)
    const run = await cronSession([{ reply: 'hello' }, { reply: 'last one' }], 'hi', { clock, cwd }, (_r, i, ch) => {
      if (i === 0) clock.runNext()
      else ch.close()
    })
    expect(lastSent(run.requests[1]!.body)).toEqual(['old job\n\n(Scheduled job abcd0123 has reached its age limit: this is its last run, and it is now deleted.)'])
    expect(JSON.parse(await readFile(join(cwd, '.claude', 'scheduled_tasks.json'), 'utf8'))).toEqual({ tasks: [] })
  })

  it('a recurring job past 30 days runs one last time, told so, and is deleted', async () => {
    const clock = new ManualClock(START)
    const run = await cronSession([create({ cron: '0 9 * * *', prompt: 'daily digest' }), { reply: 'scheduled' }, list, { reply: 'last digest' }], 'a daily digest', { clock, cwd: await newProject() }, (_r, i, ch) => {
      if (i === 0) {
        clock.set(START + 31 * DAY)
        clock.runNext()
      } else ch.close()
    })
    const id = idOf(lastSent(run.requests[1]!.body)[0]!)
    expect(lastSent(run.requests[2]!.body)).toEqual([`daily digest\n\n(Scheduled job ${id} has reached its age limit: this is its last run, and it is now deleted.)`])
    expect(lastSent(run.requests[3]!.body)).toEqual(['No scheduled jobs.'])
  })
})

describe('scheduled prompts with one prompt (-p)', () => {
  it('asks no permission, and the run ends after its prompt without waiting for the job', async () => {
    const server = await startFakeAnthropic({ script: [create({ cron: '* * * * *', prompt: 'tick' }), { reply: 'ok' }] })
    const cwd = await newProject()
    const results: unknown[] = []
    try {
      // The mod on its own $.clock: the run must not wait a minute for it.
      for await (const m of query({ prompt: 'tick every minute', options: { bare: true, cwd, mods: ['permissions', 'cron'], env: { ...process.env, HOME: cwd, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 't' } } })) {
        if (m.type === 'result') results.push('result' in m ? m.result : m.subtype)
      }
    } finally {
      await server.close()
    }
    expect(lastSent(server.requests[1]!.body as any)[0]).toMatch(/^Scheduled recurring job [0-9a-f]{8} \(Every minute\)\. Next run: /)
    expect(results).toEqual(['ok'])
    expect(server.requests).toHaveLength(2)
  })
})

describe('the schedule', () => {
  it('puts the common shapes in words and leaves the others as written', () => {
    expect(['* * * * *', '*/1 * * * *', '*/10 * * * *', '0 * * * *', '7 * * * *', '5 */2 * * *', '0 */1 * * *', '30 14 * * *', '0 9 * * 1', '0 9 * * 1-5', '30 14 28 2 *', '0 9 * * 1,3'].map(humanSchedule)).toEqual([
      'Every minute', 'Every minute', 'Every 10 minutes', 'Every hour', 'Every hour at :07', 'Every 2 hours at :05', 'Every hour', 'Every day at 2:30 PM', 'Every Monday at 9:00 AM', 'Weekdays at 9:00 AM', '30 14 28 2 *', '0 9 * * 1,3',
    ])
  })

  it('moves a job by a fixed share of its own: recurring late by at most half its period (30 min cap), a one-shot on :00/:30 up to 90 s early', () => {
    const at = (h: number, m: number) => new Date(2026, 0, 5, h, m).getTime()
    expect(nextRun({ id: '00000000', cron: '*/10 * * * *', recurring: true }, START)).toBe(at(10, 10))
    expect(nextRun({ id: 'ffffffff', cron: '*/10 * * * *', recurring: true }, START)).toBeCloseTo(at(10, 10) + 5 * 60_000, -3)
    expect(nextRun({ id: 'ffffffff', cron: '0 9 * * *', recurring: true }, START)).toBeCloseTo(new Date(2026, 0, 6, 9, 30).getTime(), -3)
    expect(nextRun({ id: '80000000', cron: '30 16 5 1 *', recurring: false }, START)).toBe(at(16, 30) - 45_000)
    expect(nextRun({ id: 'ffffffff', cron: '15 16 5 1 *', recurring: false }, START)).toBe(at(16, 15))
  })
})
