import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Worker } from '../../cli/fleet/worker.js'
import { openQueue, QUEUE } from '../../cli/fleet/queue.js'
import { main } from '../../cli/main.js'
import { startFakeAnthropic, type FakeAnthropic } from '../helpers/fake-anthropic.js'
import { cli, freshDatabase, jobRows, jobsEnded, sql, tempDir, until } from './helpers.js'

let url: string
let cwd: string
const workers: Worker[] = []
const servers: FakeAnthropic[] = []
const logs: string[] = []

beforeAll(async () => {
  cwd = tempDir('fleet-jobs')
  // A small distribution: transcripts and Bash, no asks (the jobs run unattended).
  writeFileSync(join(cwd, 'modloop.config.json'), JSON.stringify({ mods: ['transcripts', 'bash'] }))
})
afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop(0)))
  await Promise.all(servers.map((s) => s.close()))
})

/** A worker of its own machine: its own home for the sessions' working copies. */
async function startWorker(env: Record<string, string> = {}, options: Partial<ConstructorParameters<typeof Worker>[0]> = {}): Promise<Worker> {
  const w = new Worker({ queueUrl: url, concurrency: 1, env: { MODLOOP_HOME: tempDir('worker-home'), ...env }, log: (l) => logs.push(l), pollMs: 500, reapMs: 200, graceSeconds: 1, ...options })
  workers.push(w)
  await w.start()
  return w
}

async function fake(script: unknown[]): Promise<Record<string, string>> {
  const server = await startFakeAnthropic({ script })
  servers.push(server)
  return { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test', MODLOOP_RETRY_BASE_MS: '1' }
}

const submit = (args: string[]) => cli(['submit', '--queue', url, '--cwd', cwd, ...args], cwd, {})
const stopAll = async () => { await Promise.all(workers.splice(0).map((w) => w.stop(0))) }
const turnResults = async (sessionId: string) => (await sql<{ n: string }>(url, `SELECT count(*) AS n FROM modloop.session_line WHERE session_id = $1 AND line LIKE '%"subtype":"turn_result"%'`, [sessionId]))[0]!.n

// The timeout bounds a hang only (sessions on a shared 2-core machine); nothing here asserts a duration.
describe('workers on a pg-boss queue', { timeout: 60_000 }, () => {
  beforeAll(async () => { url = await freshDatabase() })

  it('two workers share a queue: jobs run at once on both; submit --wait prints what -p prints', async () => {
    const env = await fake([])
    const [one, two] = [await startWorker(env), await startWorker(env)]
    // Each job waits in Bash until both have started: they can only finish by running side by side.
    const barrier = join(tempDir('barrier'), 'started')
    const wait = `touch ${barrier}-$$; while [ $(ls ${barrier}-* | wc -l) -lt 2 ]; do sleep 0.02; done; echo both`
    const script = join(cwd, 'barrier.json')
    writeFileSync(script, JSON.stringify([{ reply: [{ tool_use: { name: 'Bash', input: { command: wait } } }] }, { reply: 'done side by side' }]))
    const ids = [
      (await submit(['-p', 'first', '--script', script])).out.trim(),
      (await submit(['-p', 'second', '--script', script])).out.trim(),
    ]
    const rows = await jobsEnded(url, 2)
    expect(rows.map((r) => [r.state, r.output?.result?.result])).toEqual([['completed', 'done side by side'], ['completed', 'done side by side']])
    const ran = await sql<{ worker: string }>(url, 'SELECT worker FROM modloop.job_run WHERE job_id = ANY($1::uuid[])', [ids])
    expect(new Set(ran.map((r) => r.worker))).toEqual(new Set([one.name, two.name]))

    const answer = join(cwd, 'answer.json')
    writeFileSync(answer, JSON.stringify([{ reply: 'the answer' }]))
    const waited = await submit(['-p', 'wait for me', '--script', answer, '--wait', '--output-format', 'json'])
    expect(waited.code, waited.err).toBe(0)
    expect(JSON.parse(waited.out)).toMatchObject({ type: 'result', subtype: 'success', result: 'the answer', is_error: false })
    // As -p prints it, its fields in the same order (the job's output comes back from jsonb, reordered).
    const localJson = await cli(['-p', 'wait for me', '--script', answer, '--output-format', 'json'], cwd, { MODLOOP_HOME: tempDir('home') })
    expect(Object.keys(JSON.parse(waited.out))).toEqual(Object.keys(JSON.parse(localJson.out)))
    const streamed = await submit(['-p', 'stream it', '--script', answer, '--wait', '--output-format', 'stream-json'])
    const local = await cli(['-p', 'stream it', '--script', answer, '--output-format', 'stream-json'], cwd, { MODLOOP_HOME: tempDir('home') })
    const kinds = (out: string) => out.trim().split('\n').map((l) => { const m = JSON.parse(l); return `${m.type}/${m.subtype ?? ''}` })
    expect(kinds(streamed.out)).toEqual(kinds(local.out))

    const listed = JSON.parse((await cli(['jobs', '--queue', url, '--json'], cwd, {})).out) as { id: string; state: string; sessionId: string; result: unknown }[]
    expect(listed).toHaveLength(4)
    expect(listed.every((j) => j.state === 'completed' && typeof j.sessionId === 'string' && j.result !== null)).toBe(true)
    const shown = await cli(['jobs', '--queue', url, ids[0]!], cwd, {})
    expect(shown.out).toMatch(new RegExp(`^job ${ids[0]}: completed · session [0-9a-f-]{36} · \\$\\d`))
    expect(shown.out).toContain('done side by side')
    await stopAll()
  })

  it('bad usage is refused before anything is queued, naming the flag', async () => {
    expect(await submit(['--script', 'x.json'])).toMatchObject({ code: 1, err: expect.stringContaining('-p PROMPT is needed') })
    expect(await cli(['submit', '-p', 'x'], cwd, {})).toMatchObject({ code: 1, err: expect.stringContaining('--queue URL is needed') })
    expect(await cli(['worker', '--queue', 'mysql://db/x'], cwd, {})).toMatchObject({ code: 1, err: expect.stringContaining('--queue: expected a postgres:// URL') })
    expect(await submit(['-p', 'x', '--session-id', 'not-a-uuid'])).toMatchObject({ code: 1, err: expect.stringContaining('--session-id') })
    expect(await submit(['-p', 'x', '--retries', '1.5'])).toMatchObject({ code: 1, err: expect.stringContaining('--retries takes a whole number, not "1.5"') })
    expect(await submit(['-p', 'x', '--priority', '0.5'])).toMatchObject({ code: 1, err: expect.stringContaining('--priority takes a whole number') })
    expect(await cli(['jobs', '--queue', url, 'not-a-job'], cwd, {})).toMatchObject({ code: 1, err: expect.stringContaining('a job id is a UUID (as submit printed it), not "not-a-job"') })
  })

  // Input piped to submit was dropped without a word: `git diff | modloop submit -p "review this"` queued "review this" alone.
  it('submit takes a piped prompt as -p does: after -p on a line of its own, or the whole prompt', async () => {
    const piped = async (text: string, args: string[]) => {
      let err = ''
      const io = { stdout: { write: () => true }, stderr: { write: (t: string) => (err += t) }, stdin: Readable.from([Buffer.from(text)]), cwd, env: {} }
      expect(await main(['submit', '--queue', url, '--cwd', cwd, ...args], io), err).toBe(0)
    }
    await piped('the diff\n', ['-p', 'review this', '--session-id', '00000000-0000-4000-8000-00000000d1ff'])
    await piped('the whole prompt', ['--session-id', '00000000-0000-4000-8000-0000000a11ed'])
    const prompts = await sql<{ prompt: string }>(url, `SELECT data->>'prompt' AS prompt FROM pgboss.job WHERE data->>'sessionId' IN ('00000000-0000-4000-8000-00000000d1ff', '00000000-0000-4000-8000-0000000a11ed')`)
    expect(prompts.map((p) => p.prompt).sort()).toEqual(['review this\nthe diff\n', 'the whole prompt'])
    await sql(url, `DELETE FROM pgboss.job WHERE data->>'sessionId' IN ('00000000-0000-4000-8000-00000000d1ff', '00000000-0000-4000-8000-0000000a11ed')`)
  })

  // A worker whose session store was out of reach used to start and fail every job it took, spending their runs.
  it('a worker does not start when its session store is out of reach; the errors name the flag, never the password', async () => {
    const bad = 'postgres://u:secret@127.0.0.1:1/x'
    const w = new Worker({ queueUrl: url, storeUrl: bad, concurrency: 1, env: {}, log: (l) => logs.push(l) })
    const started = w.start()
    await expect(started).rejects.toThrow(`--session-store: cannot reach the database at postgres://u:***@127.0.0.1:1/x`)
    await started.then(() => w.stop(0), () => undefined)
    expect(await cli(['jobs', '--queue', bad], cwd, {})).toMatchObject({ code: 1, err: expect.stringContaining('--queue: cannot reach the database at postgres://u:***@') })
    const notUrl = await cli(['jobs', '--queue', 'postgres://u:secret@db:port/x'], cwd, {})
    expect(notUrl).toMatchObject({ code: 1, err: expect.stringContaining('--queue: not a URL: "postgres://u:***@db:port/x"') })
    expect(notUrl.err).not.toContain('secret')
  })

  it('100 small jobs across 4 workers: none lost, none run twice to completion', async () => {
    const db = await freshDatabase()
    const queue = await openQueue(db, { role: 'test', supervise: false, log: () => {} })
    try {
      // The smallest distribution that keeps sessions: the transcripts mod alone.
      const small = tempDir('fleet-small')
      writeFileSync(join(small, 'modloop.config.json'), JSON.stringify({ mods: ['transcripts'] }))
      const jobs = Array.from({ length: 100 }, (_, i) => ({ name: QUEUE, data: { prompt: `job ${i}`, cwd: small, sessionId: crypto.randomUUID(), options: { script: [{ reply: `done ${i}` }] } } }))
      await queue.boss.insert(jobs)
    } finally {
      await queue.close()
    }
    const saved = url
    url = db
    const four = await Promise.all([1, 2, 3, 4].map(() => startWorker({}, { concurrency: 2 })))
    const rows = await jobsEnded(db, 100)
    url = saved
    expect(rows).toHaveLength(100)
    expect(rows.filter((r) => r.state === 'completed')).toHaveLength(100)
    expect(rows.map((r) => r.output?.result?.result).sort()).toEqual(Array.from({ length: 100 }, (_, i) => `done ${i}`).sort())
    const runs = await sql<{ attempts: number; n: string }>(db, 'SELECT attempts, count(*) AS n FROM modloop.job_run GROUP BY attempts')
    expect(runs).toEqual([{ attempts: 1, n: '100' }])
    const results = await sql<{ n: string }>(db, `SELECT count(*) AS n FROM modloop.session_line WHERE line LIKE '%"subtype":"turn_result"%'`)
    expect(results[0]!.n).toBe('100')
    expect(four.every((w) => w.done.completed > 0)).toBe(true)
    expect(four.reduce((n, w) => n + w.done.completed, 0)).toBe(100)
    await stopAll()
  })

  it('a graceful stop hands the running job back; another worker resumes its session and finishes it', async () => {
    const env = await fake([
      { reply: [{ tool_use: { name: 'Bash', input: { command: 'sleep 30' } } }] },
      { reply: 'finished after the hand-back', expect: { lastUserText: 'Carry on with the task' } },
    ])
    const first = await startWorker(env)
    const id = (await submit(['-p', 'a long task'])).out.trim()
    // The Bash call is running once its tool_use is stored.
    await until(async () => ((await sql(url, `SELECT 1 FROM modloop.job_message WHERE job_id = $1 AND message LIKE '%"tool_use"%'`, [id])).length > 0 ? true : undefined))
    await first.stop(0)
    expect(first.done.handedBack).toBe(1)
    await startWorker(env)
    const rows = await until(async () => (await jobRows(url)).find((r) => r.id === id && r.state === 'completed'))
    expect(rows.output?.result).toMatchObject({ result: 'finished after the hand-back', is_error: false, session_id: rows.data.sessionId })
    const lines = await sql<{ line: string }>(url, `SELECT line FROM modloop.session_line WHERE session_id = $1 AND agent_id = '' ORDER BY seq`, [rows.data.sessionId])
    const texts = lines.map((l) => JSON.parse(l.line)).filter((e) => e.type === 'user' && typeof e.message?.content?.[0]?.text === 'string').map((e) => e.message.content[0].text as string)
    expect(texts[0]).toBe('a long task')
    expect(texts[1]).toMatch(/^The run of this job stopped/)
    expect(await turnResults(rows.data.sessionId)).toBe('2')
    await stopAll()
  })

  // A job whose model calls kept failing, or whose turn hit its limit, ended completed: nothing told the operator it had failed.
  it('a job whose turn ends in an error fails with it: run again after an API failure while it has retries, failed at once after a limit', async () => {
    const env = await fake([{ error: { status: 500 } }, { reply: 'recovered', expect: { lastUserText: 'Carry on with the task' } }, { error: { status: 529 } }, { error: { status: 500 } }, { error: { status: 401 } }])
    await startWorker({ ...env, MODLOOP_MAX_RETRIES: '0' })
    const state = async (id: string) => (await jobRows(url)).find((r) => r.id === id)!
    const recovered = await submit(['-p', 'fails once', '--retries', '1', '--wait'])
    expect(recovered).toMatchObject({ code: 0, out: 'recovered\n' })
    const spent = await submit(['-p', 'fails twice', '--retries', '1', '--wait', '--output-format', 'json'])
    expect(spent.code).toBe(1)
    expect(JSON.parse(spent.out)).toMatchObject({ is_error: true, result: expect.stringContaining('API Error 500') })
    const refused = await submit(['-p', 'bad key', '--wait'])
    expect(refused.code).toBe(1)
    const limitScript = join(cwd, 'two-turns.json')
    writeFileSync(limitScript, JSON.stringify([{ reply: [{ tool_use: { name: 'Bash', input: { command: 'true' } } }] }, { reply: 'never' }]))
    const limited = await submit(['-p', 'too many turns', '--max-turns', '1', '--script', limitScript, '--wait'])
    expect(limited.code).toBe(1)
    const [one, two, three, four] = [recovered, spent, refused, limited].map((r) => /job ([0-9a-f-]{36})/.exec(r.err)![1]!)
    expect(await state(one!)).toMatchObject({ state: 'completed', output: { result: { result: 'recovered' } } })
    expect(await state(two!)).toMatchObject({ state: 'failed', output: { error: expect.stringContaining('API Error 500'), result: { is_error: true } } })
    expect(await state(three!)).toMatchObject({ state: 'failed', output: { error: expect.stringContaining('API Error 401') } })
    expect(await state(four!)).toMatchObject({ state: 'failed', output: { error: 'Reached maximum number of turns (1)', result: { subtype: 'error_max_turns' } } })
    const runs = await sql<{ job_id: string; attempts: number }>(url, 'SELECT job_id, attempts FROM modloop.job_run WHERE job_id = ANY($1::uuid[])', [[one, two, three, four]])
    expect(Object.fromEntries(runs.map((r) => [r.job_id, r.attempts]))).toEqual({ [one!]: 2, [two!]: 2, [three!]: 1, [four!]: 1 })
    const listed = (await cli(['jobs', '--queue', url], cwd, {})).out
    expect(listed).toMatch(new RegExp(`${four} +failed .*Reached maximum number of turns`))
    await stopAll()
  })

  // There was no way to cancel a job, and a job cancelled through pg-boss went on running its turn to the end.
  it('jobs --cancel cancels a running job: its worker stops the turn, and the job stays cancelled', async () => {
    const env = await fake([{ reply: [{ tool_use: { name: 'Bash', input: { command: 'sleep 30' } } }] }, { reply: 'never asked' }])
    const w = await startWorker(env, { pollMs: 60_000 })
    const id = (await submit(['-p', 'a task to cancel'])).out.trim()
    await until(async () => ((await sql(url, `SELECT 1 FROM modloop.job_message WHERE job_id = $1 AND message LIKE '%"tool_use"%'`, [id])).length > 0 ? true : undefined))
    expect(await cli(['jobs', '--queue', url, id, '--cancel'], cwd, {})).toMatchObject({ code: 0, out: `job ${id} cancelled\n` })
    await until(async () => (w.done.cancelled === 1 && w.busy === 0 ? true : undefined))
    expect((await jobRows(url)).find((r) => r.id === id)!.state).toBe('cancelled')
    expect(await cli(['jobs', '--queue', url, id, '--cancel'], cwd, {})).toMatchObject({ code: 1, err: expect.stringContaining(`job ${id} has ended already (cancelled)`) })
    expect(await cli(['jobs', '--queue', url, '--cancel'], cwd, {})).toMatchObject({ code: 1, err: expect.stringContaining('--cancel needs the id') })
    await stopAll()
  })

  // A follow-up job on a session still running waits for it: it used to fail at once (the session
  // held in the same worker), or be run with the carry-on prompt instead of its own (elsewhere).
  it.each([
    ['one worker running both jobs', [{ concurrency: 2 }]],
    ['two workers', [{}, {}]],
  ])('a job on a session that another job still runs waits for it, then runs its own prompt: %s', async (_, shapes) => {
    const db = await freshDatabase()
    const saved = url
    url = db
    const marks = tempDir('fleet-follow-up')
    const wait = `touch ${marks}/started; while [ ! -f ${marks}/release ]; do sleep 0.05; done`
    const env = await fake([
      { reply: 'session made', when: { lastUserText: 'make it' } },
      { reply: [{ tool_use: { name: 'Bash', input: { command: wait } } }], when: { lastUserText: 'job one' } },
      { reply: 'job two done', when: { lastUserText: 'job two' } },
      { reply: 'job one done' },
    ])
    // A short wait for the session: job two meets it busy and goes back on the queue at least once.
    for (const options of shapes) await startWorker(env, { ...options, sessionWaitMs: 300 })
    const made = await submit(['-p', 'make it', '--wait', '--output-format', 'json'])
    const session = JSON.parse(made.out).session_id as string
    const one = (await submit(['-p', 'job one', '--resume', session])).out.trim()
    await until(async () => (existsSync(join(marks, 'started')) ? true : undefined))
    const two = (await submit(['-p', 'job two', '--resume', session, '--retries', '0'])).out.trim()
    // Job two has met the busy session (waited it out and gone back on the queue, or failed on it) before job one ends.
    await until(async () => (logs.some((l) => l.includes(`job ${two}`) && /waits for its session|failed/.test(l)) ? true : undefined))
    writeFileSync(join(marks, 'release'), '')
    const rows = await until(async () => { const r = await jobRows(url); return r.filter((j) => [one, two].includes(j.id) && j.state !== 'created' && j.state !== 'active' && j.state !== 'retry').length === 2 ? r : undefined })
    expect(rows.find((r) => r.id === one)!.output?.result).toMatchObject({ result: 'job one done' })
    expect(rows.find((r) => r.id === two)).toMatchObject({ state: 'completed', output: { result: { result: 'job two done' } } })
    const prompts = (await sql<{ line: string }>(url, `SELECT line FROM modloop.session_line WHERE session_id = $1 AND agent_id = '' ORDER BY seq`, [session]))
      .map((l) => JSON.parse(l.line)).filter((e) => e.type === 'user' && e.message.content[0]?.type === 'text').map((e) => e.message.content[0].text)
    expect(prompts).toEqual(['make it', 'job one', 'job two'])
    const [run] = await sql<{ attempts: number }>(url, 'SELECT attempts FROM modloop.job_run WHERE job_id = $1', [two])
    expect(run!.attempts).toBe(1)
    url = saved
    await stopAll()
  })

  // Jobs waiting for one session each looked for it free on their own clock: the first to notice took
  // it, so follow-ups sent one after another ran in any order (seen: job 1, 4, 2, 5, 3).
  it('jobs sent to one session run in the order they were sent, however many wait for it at once', async () => {
    const db = await freshDatabase()
    const saved = url
    url = db
    const marks = tempDir('fleet-order')
    const wait = `touch ${marks}/started; while [ ! -f ${marks}/release ]; do sleep 0.05; done`
    const later = ['job two', 'job three', 'job four', 'job five']
    const env = await fake([
      { reply: 'session made', when: { lastUserText: 'make it' } },
      { reply: [{ tool_use: { name: 'Bash', input: { command: wait } } }], when: { lastUserText: 'job one' } },
      ...later.map((p) => ({ reply: `${p} done`, when: { lastUserText: p } })),
      { reply: 'job one done' },
    ])
    await startWorker(env, { concurrency: 5 })
    const made = await submit(['-p', 'make it', '--wait', '--output-format', 'json'])
    const session = JSON.parse(made.out).session_id as string
    const ids = [(await submit(['-p', 'job one', '--resume', session])).out.trim()]
    await until(async () => (existsSync(join(marks, 'started')) ? true : undefined))
    for (const p of later) ids.push((await submit(['-p', p, '--resume', session])).out.trim())
    // Every follow-up is taken and waiting before the session is let go.
    await until(async () => ((await jobRows(url)).filter((j) => ids.includes(j.id) && j.state === 'active').length === 5 ? true : undefined))
    writeFileSync(join(marks, 'release'), '')
    await until(async () => ((await jobRows(url)).filter((j) => ids.includes(j.id) && j.state === 'completed').length === 5 ? true : undefined))
    const prompts = (await sql<{ line: string }>(url, `SELECT line FROM modloop.session_line WHERE session_id = $1 AND agent_id = '' ORDER BY seq`, [session]))
      .map((l) => JSON.parse(l.line)).filter((e) => e.type === 'user' && e.message.content[0]?.type === 'text').map((e) => e.message.content[0].text)
    expect(prompts).toEqual(['make it', 'job one', ...later])
    url = saved
    await stopAll()
  })

  // A worker idle when its connection dropped (the server restarted) no longer heard submits or cancels: jobs waited for its next poll.
  it('a worker whose listening connection drops listens again on a new one: a job submitted then starts at once', async () => {
    await startWorker({}, { pollMs: 600_000 })
    const listeners = `SELECT pid FROM pg_stat_activity WHERE query = 'LISTEN modloop_jobs' AND datname = current_database()`
    const [dropped] = await sql<{ pid: number }>(url, listeners)
    await sql(url, 'SELECT pg_terminate_backend($1)', [dropped!.pid])
    await until(async () => ((await sql<{ pid: number }>(url, listeners)).some((r) => r.pid !== dropped!.pid) ? true : undefined))
    const answer = join(cwd, 'after-drop.json')
    writeFileSync(answer, JSON.stringify([{ reply: 'heard it' }]))
    expect(await submit(['-p', 'after the drop', '--script', answer, '--wait'])).toMatchObject({ code: 0, out: 'heard it\n' })
    await stopAll()
  })

  // Jobs waiting out a pause used to show as created with nothing to say why.
  it('jobs says until when the queue is paused', async () => {
    await cli(['jobs', '--queue', url], cwd, {})
    await sql(url, `INSERT INTO modloop.queue_throttle (queue, until, reason) VALUES ($1, now() + interval '1 hour', 'the API answered 429 to w') ON CONFLICT (queue) DO UPDATE SET until = EXCLUDED.until, reason = EXCLUDED.reason`, [QUEUE])
    const listed = await cli(['jobs', '--queue', url], cwd, {})
    await sql(url, 'DELETE FROM modloop.queue_throttle')
    expect(listed.err).toMatch(/the queue is paused until \d{4}-\d\d-\d\dT[\d:.]+Z \(the API answered 429 to w\): no worker starts a job before then/)
  })

  it('a 429 from the API throttles the queue: no worker starts a job until the pause is over', async () => {
    const env = await fake([{ error: { status: 429 } }, { reply: 'after the 429' }, { reply: 'the next job' }])
    await startWorker(env, { throttleMs: 1000 })
    const first = (await submit(['-p', 'meets a 429'])).out.trim()
    const second = (await submit(['-p', 'comes after'])).out.trim()
    const rows = await until(async () => { const r = await jobRows(url); return r.filter((j) => [first, second].includes(j.id) && j.state === 'completed').length === 2 ? r : undefined })
    const [throttled] = await sql<{ until: Date; reason: string }>(url, 'SELECT until, reason FROM modloop.queue_throttle')
    expect(throttled!.reason).toContain('429')
    expect(rows.find((r) => r.id === second)!.started_on!.getTime()).toBeGreaterThanOrEqual(throttled!.until.getTime())
    await stopAll()
  })
})
