import { existsSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { SDKMessage, SDKResultMessage } from '../../core/loop/messages.js'
import { query } from '../../entry.js'
import { ManualClock } from '../../testing/manual-clock.js'
import { startFakeAnthropic } from '../helpers/fake-anthropic.js'
import { channel } from '../helpers/channel.js'
import { lastSent, newProject, START } from './helpers.js'

/** A streaming session with the cron mod on its own clock; `results` waits for the n-th result. */
async function openSession(cwd: string, clock: ManualClock, script: unknown) {
  const server = await startFakeAnthropic({ script })
  const ch = channel()
  const results: SDKResultMessage[] = []
  const waiters: (() => void)[] = []
  const q = query({ prompt: ch.input, options: { bare: true, cwd, mods: [['cron', { clock }]], env: { ...process.env, HOME: cwd, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 't' } } })
  const done = (async () => {
    for await (const m of q as AsyncIterable<SDKMessage>) {
      if (m.type !== 'result') continue
      results.push(m)
      for (const w of waiters.splice(0)) w()
    }
    await server.close()
  })()
  const result = async (n: number) => {
    while (results.length < n) await new Promise<void>((r) => waiters.push(r))
  }
  return { ch, done, result, requests: server.requests as { body: any }[] }
}

// Event-loop turns, not time: the takeover reads the file before the job is armed.
const settle = async (clock: ManualClock) => {
  while (clock.nextAt === undefined) await new Promise((r) => setImmediate(r))
}

describe('durable jobs have one owner in a project', () => {
  it('a second session leaves the file\'s jobs to the first, and takes them up once the first is gone', async () => {
    const cwd = await newProject()
    await mkdir(join(cwd, '.claude'))
    await writeFile(join(cwd, '.claude', 'scheduled_tasks.json'), JSON.stringify({ tasks: [{ id: 'abcd0123', cron: '*/5 * * * *', prompt: 'check the build', createdAt: START, recurring: true }] }))
    const clockA = new ManualClock(START)
    const clockB = new ManualClock(START)
    const a = await openSession(cwd, clockA, [{ reply: 'a here' }, { reply: 'a checked' }])
    a.ch.send('hi')
    await a.result(1)
    expect(existsSync(join(cwd, '.claude', 'scheduled_tasks.lock'))).toBe(true)

    const b = await openSession(cwd, clockB, [{ reply: [{ tool_use: { name: 'CronList', input: {} } }] }, { reply: 'b listed' }, { reply: 'b checked' }])
    b.ch.send('what is scheduled?')
    await b.result(1)
    expect(lastSent(b.requests[1]!.body)).toEqual(['No scheduled jobs.'])
    // B's only timer is its next try at the lock, which A still holds.
    clockB.runNext()
    expect(clockB.nextAt).toBe(START + 120_000)

    clockA.runNext()
    await a.result(2)
    expect(lastSent(a.requests[1]!.body)).toEqual(['check the build'])
    a.ch.close()
    await a.done

    // A is gone: B's next try takes the lock, and the job runs in B.
    clockB.runNext()
    await settle(clockB)
    clockB.runNext()
    await b.result(2)
    expect(lastSent(b.requests[2]!.body)).toEqual(['check the build'])
    b.ch.close()
    await b.done
    expect(b.requests).toHaveLength(3)
    expect(existsSync(join(cwd, '.claude', 'scheduled_tasks.lock'))).toBe(false)
  })
})
