import { hostname } from 'node:os'
import type PgBoss from 'pg-boss'
import { describeError } from '../../core/errors.js'
import { AdvisoryLocks } from '../../mods/transcripts/store/postgres/locks.js'
import { PostgresStore } from '../../mods/transcripts/store/postgres/pg-store.js'
import { cancelledAmong, failForGood, forgetDeletedJobs, handBack, reapOrphans, stillOurs, throttle, throttledUntil } from './job-state.js'
import { jobEnd } from './job-end.js'
import { MESSAGES_CHANNEL, openQueue, QUEUE, WAKE_CHANNEL, type Queue } from './queue.js'
import { startJob, type JobContext, type JobOutcome, type RunningJob } from './run-job.js'

export interface WorkerOptions {
  queueUrl: string
  /** Where sessions are kept; default: the queue's database. */
  storeUrl?: string
  /** Jobs run at once. */
  concurrency: number
  /** The distribution of jobs that name none. */
  config?: string
  env: Record<string, string | undefined>
  log: (line: string) => void
  /** How often the queue is asked for jobs when no notification came (ms). */
  pollMs?: number
  /** How often jobs of dead workers are looked for (ms). */
  reapMs?: number
  /** How long a job may stay active before its lock is checked: the moment between a fetch and its lock (s). */
  graceSeconds?: number
  /** The least time the queue pauses after a 429 (ms). */
  throttleMs?: number
  /** How long a job waits for its session, held by another run, before going back on the queue (ms). */
  sessionWaitMs?: number
}

let workers = 0
// How often a worker deletes the messages and runs of jobs pg-boss no longer keeps.
const TIDY_MS = 15 * 60_000

/**
 * A worker: takes jobs from the queue while it has room (`concurrency`), runs each as a session
 * (run-job.ts) and completes, fails or hands it back. While it runs a job it holds the job's
 * advisory lock on a connection of its own; every worker looks now and then for active jobs whose
 * lock nobody holds (their worker died) and puts them back on the queue (job-state.ts), where
 * another worker picks them up and resumes their sessions from the store. Submitting, handing back
 * and reaping notify the workers, so a job waits for the next poll only when a notification is lost.
 */
export class Worker {
  readonly name = `${hostname()}:${process.pid}:${++workers}`
  private queue!: Queue
  private store!: PostgresStore
  private locks!: AdvisoryLocks
  private ctx!: JobContext
  private readonly running = new Map<string, RunningJob>()
  private readonly settling = new Set<Promise<void>>()
  private readonly timers: NodeJS.Timeout[] = []
  private filling: Promise<void> | undefined
  private again = false
  private stopping = false
  private throttleTimer: NodeJS.Timeout | undefined
  /** A 429 being recorded: no job is fetched before the queue knows it is throttled. */
  private throttling: Promise<void> | undefined
  private throttleChecked = 0
  /** The connection this worker listens on (the job locks'); a new one after it was lost. */
  private listening: unknown
  private throttleEnd: Date | undefined
  /** What this worker did, for its log and tests. */
  readonly done = { completed: 0, failed: 0, handedBack: 0, reaped: 0, cancelled: 0 }

  constructor(private readonly options: WorkerOptions) {}

  async start(): Promise<void> {
    const o = this.options
    this.queue = await openQueue(o.queueUrl, { role: 'worker', supervise: true, log: o.log })
    this.store = new PostgresStore(o.storeUrl ?? o.queueUrl, { source: o.storeUrl ? '--session-store' : '--queue', log: o.log, onLost: (why) => this.lost(`the session locks' connection: ${why}`) })
    // A store it cannot reach would fail every job it took, spending their runs: the worker does not start.
    await this.store.db().catch(async (err: unknown) => {
      await this.queue.close()
      throw err
    })
    this.locks = new AdvisoryLocks(o.queueUrl, this.queue.pool, 'worker', (why) => this.lost(why))
    const { BUILTINS } = await import('../../builtins.js')
    this.ctx = {
      pool: this.queue.pool, store: this.store, builtins: { ...BUILTINS, sessionStore: this.store }, env: o.env, worker: this.name,
      ...(o.config ? { config: o.config } : {}),
      ...(o.sessionWaitMs !== undefined ? { sessionWaitMs: o.sessionWaitMs } : {}),
      log: o.log, rateLimited: (ms) => { this.throttling = this.rateLimited(ms) },
    }
    await this.listen()
    this.timers.push(
      setInterval(() => { this.wake(); void this.stopCancelled() }, o.pollMs ?? 2000),
      setInterval(() => void this.reap(), o.reapMs ?? 2000),
      setInterval(() => void forgetDeletedJobs(this.queue.pool).catch(() => undefined), TIDY_MS),
    )
    this.wake()
  }

  /** How many jobs run now. */
  get busy(): number {
    return this.running.size
  }

  /**
   * Stops taking jobs; running ones get `drainMs` to finish, then are stopped and handed back, their
   * sessions stored as they stand for the next worker to resume. Resolves once all is let go.
   */
  async stop(drainMs = 30_000): Promise<void> {
    const first = !this.stopping
    this.stopping = true
    for (const t of this.timers.splice(0)) clearInterval(t)
    clearTimeout(this.throttleTimer)
    if (this.running.size > 0 && drainMs > 0) {
      let timer: NodeJS.Timeout | undefined
      await Promise.race([this.idle(), new Promise((r) => { timer = setTimeout(r, drainMs) })])
      clearTimeout(timer)
    }
    for (const job of this.running.values()) job.stop('shutdown')
    await this.idle()
    if (!first) return
    await this.filling
    await this.store.close()
    await this.locks.close()
    await this.queue.close()
  }

  /** Resolves when no job runs and every finished one is recorded. */
  private async idle(): Promise<void> {
    while (this.settling.size > 0) await Promise.all([...this.settling])
  }

  /** Asks the queue for jobs until this worker is full or the queue empty; a call while one runs makes it go round again. */
  wake(): void {
    if (this.stopping) return
    if (this.filling) {
      this.again = true
      return
    }
    this.filling = this.fill().finally(() => {
      this.filling = undefined
      if (this.again) {
        this.again = false
        this.wake()
      }
    })
  }

  private async fill(): Promise<void> {
    try {
      while (!this.stopping && this.running.size < this.options.concurrency) {
        await this.throttling
        const until = await this.throttledUntil()
        if (until) {
          clearTimeout(this.throttleTimer)
          this.throttleTimer = setTimeout(() => this.wake(), Math.max(0, until.getTime() - Date.now()) + 10)
          return
        }
        const jobs = await this.queue.boss.fetch<object>(QUEUE, { batchSize: this.options.concurrency - this.running.size, includeMetadata: true })
        if (jobs.length === 0) return
        for (const job of jobs) await this.claim(job)
      }
    } catch (err) {
      if (!this.stopping) this.options.log(`worker ${this.name}: could not take jobs: ${describeError(err)}`)
    }
  }

  /**
   * Until when the queue is throttled. Asked of the database at most once a second: a worker that
   * throttles it notifies the others, which then ask at once.
   */
  private async throttledUntil(): Promise<Date | undefined> {
    if (Date.now() - this.throttleChecked > 1000) {
      this.throttleChecked = Date.now()
      this.throttleEnd = await throttledUntil(this.queue.pool)
    }
    return this.throttleEnd && this.throttleEnd.getTime() > Date.now() ? this.throttleEnd : undefined
  }

  /** Takes the job's lock and checks it is still the job fetched, then runs it. */
  private async claim(job: PgBoss.JobWithMetadata): Promise<void> {
    if (!await this.locks.take('job', job.id)) {
      this.options.log(`worker ${this.name}: job ${job.id} is still held by another worker; left to it`)
      return
    }
    if (this.stopping) {
      await handBack(this.queue.pool, job.id)
      await this.locks.free('job', job.id)
      return
    }
    if (!await stillOurs(this.queue.pool, job.id, job.startedOn)) {
      await this.locks.free('job', job.id)
      this.options.log(`worker ${this.name}: job ${job.id} was taken back before it could start here; left to the queue`)
      return
    }
    this.options.log(`worker ${this.name}: took job ${job.id}${job.retryCount > 0 ? ` (run ${job.retryCount + 1})` : ''}`)
    const running = startJob(job, this.ctx)
    this.running.set(job.id, running)
    const settled = running.outcome.then((outcome) => this.finish(job, outcome)).catch((err: unknown) => {
      this.options.log(`worker ${this.name}: job ${job.id} could not be recorded: ${describeError(err)}`)
    }).finally(() => {
      this.running.delete(job.id)
      this.settling.delete(settled)
      this.wake()
    })
    this.settling.add(settled)
  }

  private async finish(job: PgBoss.JobWithMetadata, outcome: JobOutcome): Promise<void> {
    const { boss, pool } = this.queue
    try {
      if (outcome.kind === 'result') {
        const output = { sessionId: outcome.sessionId, result: outcome.result }
        const end = jobEnd(outcome.result)
        // The session lets go of its lock meanwhile; a job that goes on with it waits for that (run-job.ts).
        await Promise.all([
          end.kind === 'complete' ? boss.complete(QUEUE, job.id, output)
            : end.retry ? boss.fail(QUEUE, job.id, { ...output, error: end.error }) : failForGood(pool, job.id, { ...output, error: end.error }),
          this.store.settled(),
        ])
        if (end.kind === 'complete') this.done.completed++
        else {
          this.done.failed++
          this.options.log(`worker ${this.name}: job ${job.id} ended in an error${end.retry ? ' (run again while it has retries left)' : ''}: ${end.error}`)
        }
      } else if (outcome.kind === 'error') {
        await boss.fail(QUEUE, job.id, { sessionId: outcome.sessionId, error: describeError(outcome.error) })
        this.done.failed++
        this.options.log(`worker ${this.name}: job ${job.id} failed: ${describeError(outcome.error)}`)
      } else if (outcome.kind === 'busy') {
        // It waits for its session: back on the queue, where the next fetch finds it once the holder is done.
        await handBack(pool, job.id)
        this.options.log(`worker ${this.name}: job ${job.id} waits for its session (${outcome.holder}); back on the queue`)
      } else if (outcome.why === 'cancelled') {
        this.done.cancelled++
        this.options.log(`worker ${this.name}: job ${job.id} was cancelled; its turn stopped`)
      } else if (outcome.why === 'shutdown') {
        await handBack(pool, job.id)
        this.done.handedBack++
        this.options.log(`worker ${this.name}: handed job ${job.id} back to the queue`)
      }
      // A job whose lock was lost is left active: a worker that sees it unlocked puts it back.
    } finally {
      await Promise.all([this.locks.free('job', job.id), pool.query('SELECT pg_notify($1, $2)', [MESSAGES_CHANNEL, job.id]).catch(() => undefined)])
    }
  }

  /** The connection holding the job locks went: another worker may take those jobs now, so none of them may go on here. */
  private lost(why: string): void {
    this.options.log(`worker ${this.name}: lost its lock connection (${why}); stopping its ${this.running.size} jobs`)
    for (const job of this.running.values()) job.stop('lost')
  }

  /** Listens for wake-ups on the lock connection (opened here). */
  private async listen(): Promise<void> {
    const client = await this.locks.connection()
    if (this.listening === client) return
    this.listening = client
    client.on('notification', (n) => {
      if (n.payload === 'throttled') this.throttleChecked = 0
      if (n.payload === 'cancelled') void this.stopCancelled()
      else this.wake()
    })
    // However it went (the server restarted, a proxy dropped it), even with no job locked on it: else
    // no submit or cancel would reach this worker before its next poll.
    client.once('end', () => this.listenAgain(false))
    await client.query(`LISTEN ${WAKE_CHANNEL}`)
  }

  /** Listens on a new connection once the server takes one (tried at once, then every second), then looks for the jobs submitted meanwhile. */
  private listenAgain(failedBefore: boolean): void {
    if (this.stopping) return
    setTimeout(() => void this.listen().then(() => this.wake(), (err: unknown) => {
      if (!failedBefore) this.options.log(`worker ${this.name}: cannot listen for jobs again yet (trying every second): ${describeError(err)}`)
      this.listenAgain(true)
    }), failedBefore ? 1000 : 0)
  }

  /** Stops the turns of running jobs that were cancelled (told by a notification; the poll covers a lost one). */
  private async stopCancelled(): Promise<void> {
    if (this.running.size === 0) return
    try {
      for (const id of await cancelledAmong(this.queue.pool, [...this.running.keys()])) this.running.get(id)?.stop('cancelled')
    } catch (err) {
      this.options.log(`worker ${this.name}: could not look for cancelled jobs: ${describeError(err)}`)
    }
  }

  private async reap(): Promise<void> {
    if (this.stopping) return
    try {
      const reaped = await reapOrphans(this.queue.pool, this.options.graceSeconds ?? 3)
      for (const r of reaped) this.options.log(`worker ${this.name}: job ${r.id} lost its worker; ${r.failed ? 'failed: no runs left' : 'back on the queue'}`)
      this.done.reaped += reaped.length
    } catch (err) {
      this.options.log(`worker ${this.name}: could not look for jobs of stopped workers: ${describeError(err)}`)
    }
  }

  private async rateLimited(ms: number): Promise<void> {
    const pause = Math.max(ms, this.options.throttleMs ?? 10_000)
    try {
      const until = await throttle(this.queue.pool, pause, `the API answered 429 to ${this.name}`)
      this.throttleEnd = until
      this.throttleChecked = Date.now()
      this.options.log(`worker ${this.name}: the API is rate-limiting: no job starts until ${until.toISOString()}`)
    } catch (err) {
      this.options.log(`worker ${this.name}: could not throttle the queue: ${describeError(err)}`)
    }
  }
}
