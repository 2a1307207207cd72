import { describe, expect, it } from 'vitest'
import { ManualClock } from '../../testing/manual-clock.js'
import { AUTONOMOUS_TICK, loopPrompt } from '../../mods/cron/loop-prompts.js'
import { wakeupTime } from '../../mods/cron/wakeup-tool.js'
import { cronSession, lastSent, newProject, START } from './helpers.js'

const wakeup = (input: Record<string, unknown>) => ({ reply: [{ tool_use: { name: 'ScheduleWakeup', input } }] })
const results = (run: { results: unknown[] }) => run.results.map((r: any) => r.result)

describe('/loop and ScheduleWakeup', () => {
  it('/loop 5m X: the model is sent the loop instructions with the input, schedules X with CronCreate, and X runs at each firing while idle', async () => {
    const clock = new ManualClock(START)
    const run = await cronSession([
      { reply: [{ tool_use: { name: 'CronCreate', input: { cron: '*/5 * * * *', prompt: 'check the build', recurring: true } } }] },
      { reply: 'scheduled; the build is green' }, { reply: 'still green' }, { reply: 'green a third time' },
    ], '/loop 5m check the build', { clock, cwd: await newProject() }, (_r, i, ch) => {
      if (i < 2) clock.runNext()
      else ch.close()
    })
    expect(lastSent(run.requests[0]!.body).join('\n')).toContain(loopPrompt('5m check the build'))
    expect(lastSent(run.requests[2]!.body)).toEqual(['check the build'])
    expect(lastSent(run.requests[3]!.body)).toEqual(['check the build'])
    expect(results(run)).toEqual(['scheduled; the build is green', 'still green', 'green a third time'])
  })

  it('/loop X: X runs at once; ScheduleWakeup brings the /loop back when it fires, and stop: true ends it', async () => {
    const clock = new ManualClock(START)
    const run = await cronSession([
      wakeup({ delaySeconds: 120, reason: 'CI takes two minutes', prompt: '/loop check the build', noop: false }), { reply: 'armed' },
      wakeup({ stop: true }), { reply: 'the build is green: loop ended' },
    ], '/loop check the build', { clock, cwd: await newProject() }, (_r, i, ch) => {
      if (i === 0) expect(clock.runNext()).toBe(true)
      else ch.close()
    })
    const first = lastSent(run.requests[0]!.body).join('\n')
    expect(first).toContain(loopPrompt('check the build'))
    // 10:00:30 + 120s, moved to the next whole minute.
    expect(lastSent(run.requests[1]!.body)).toEqual(['The loop\'s next round runs at 10:03:00, in 150s. Give the user any update now, as plain text, then end the turn: the round starts on its own when the wake-up fires.'])
    expect(clock.now()).toBe(new Date(2026, 0, 5, 10, 3).getTime())
    // The wake-up runs the /loop again: the same instructions and input.
    expect(lastSent(run.requests[2]!.body).join('\n')).toContain(loopPrompt('check the build'))
    expect(lastSent(run.requests[3]!.body)[0]).toMatch(/^The self-paced loop has ended: no wake-up was pending\./)
    expect(clock.nextAt).toBeUndefined()
    expect(results(run)).toEqual(['armed', 'the build is green: loop ended'])
  })

  it('a delay is kept within 60–3600s, and stop: true cancels the pending wake-up', async () => {
    const clock = new ManualClock(START)
    const run = await cronSession([
      wakeup({ delaySeconds: 99999, reason: 'quiet', prompt: '/loop tidy up', noop: true }), { reply: 'armed' },
      wakeup({ stop: true }), { reply: 'stopped' },
    ], '/loop tidy up', { clock, cwd: await newProject() }, (_r, i, ch) => {
      if (i === 0) ch.send('stop the loop')
      else ch.close()
    })
    expect(lastSent(run.requests[1]!.body)[0]).toBe('The loop\'s next round runs at 11:00:00, in 3570s (99999s was outside 60-3600s: kept at 3600s). Give the user any update now, as plain text, then end the turn: the round starts on its own when the wake-up fires.')
    expect(lastSent(run.requests[3]!.body)[0]).toMatch(/^The self-paced loop has ended: the pending wake-up was cancelled and no other will fire\./)
    expect(clock.nextAt).toBeUndefined()
  })

  it('a bare /loop paces upkeep: its placeholder prompt fires as the upkeep instructions', async () => {
    const clock = new ManualClock(START)
    const run = await cronSession([
      wakeup({ delaySeconds: 10, reason: 'idle', prompt: '<<autonomous-loop-dynamic>>', noop: true }), { reply: 'armed' }, { reply: 'nothing to do' },
    ], '/loop', { clock, cwd: await newProject() }, (_r, i, ch) => {
      if (i === 0) clock.runNext()
      else ch.close()
    })
    expect(lastSent(run.requests[1]!.body)[0]).toContain('(10s was outside 60-3600s: kept at 60s)')
    expect(lastSent(run.requests[2]!.body)).toEqual([AUTONOMOUS_TICK])
  })

  it('wake-up times: the next whole minute, or the one before when the next is past the hour', () => {
    expect(wakeupTime(START, 60)).toEqual({ at: new Date(2026, 0, 5, 10, 2).getTime(), delayS: 60 })
    expect(wakeupTime(START, 1)).toEqual({ at: new Date(2026, 0, 5, 10, 2).getTime(), delayS: 60 })
    expect(wakeupTime(START, 5000)).toEqual({ at: new Date(2026, 0, 5, 11, 0).getTime(), delayS: 3600 })
  })
})
