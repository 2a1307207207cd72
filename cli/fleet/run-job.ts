import { existsSync } from 'node:fs'
import type PgBoss from 'pg-boss'
import type { Pool } from 'pg'
import { describeError, ModloopError } from '../../core/errors.js'
import type { Builtins } from '../../runtime/loader/types.js'
import type { QueryOptions } from '../../runtime/options.js'
import type { SDKResultMessage } from '../../core/loop/messages.js'
import type { PostgresStore } from '../../mods/transcripts/store/postgres/pg-store.js'
import { parseJobData, type JobData } from './job-data.js'
import { JobLog } from './job-log.js'
import { earlierJobOf } from './job-state.js'
import { CARRY_ON, leafOf, resumePoint } from './resume-point.js'

const SESSION_FREED_MS = 10_000

export interface JobContext {
  pool: Pool
  store: PostgresStore
  builtins: Builtins
  env: Record<string, string | undefined>
  /** Names this worker in `job_run` (host:pid). */
  worker: string
  /** The worker's `--config`: the distribution of jobs that name none. */
  config?: string
  /** How long a job waits for its session before it goes back on the queue (default SESSION_FREED_MS). */
  sessionWaitMs?: number
  log(line: string): void
  /** The API answered 429: the queue should slow down for at least this long. */
  rateLimited(delayMs: number): void
}

/** Why a worker stops a run: it shuts down, it lost the job's lock, or the job was cancelled. */
export type StopReason = 'shutdown' | 'lost' | 'cancelled'

const STOPPED: Record<StopReason, string> = { shutdown: 'the worker is shutting down', lost: 'the worker lost its job lock', cancelled: 'the job was cancelled' }

/** How a run of a job ended: with the session's result; stopped by the worker (see StopReason); or failed. */
export type JobOutcome =
  | { kind: 'result'; result: SDKResultMessage; sessionId: string; ranAgain: boolean }
  | { kind: 'stopped'; why: StopReason; sessionId?: string }
  /** Its session is held by another run, or a job before it on the session has not ended: back on the queue, not counted as a run. */
  | { kind: 'busy'; holder: string }
  | { kind: 'error'; error: Error; sessionId?: string }

export interface RunningJob {
  id: string
  /** Stops the run: its turn is interrupted, and the session closes with what it wrote. */
  stop(why: StopReason): void
  outcome: Promise<JobOutcome>
}

/** Runs one job as a session (query() in this process), resuming it when an earlier run was cut. */
export function startJob(job: PgBoss.JobWithMetadata, ctx: JobContext): RunningJob {
  const abort = new AbortController()
  let stopped: StopReason | undefined
  const outcome = run(job, ctx, abort).then((o) => (stopped ? { kind: 'stopped' as const, why: stopped, ...('sessionId' in o ? { sessionId: o.sessionId } : {}) } : o),
    (err: unknown) => (stopped ? { kind: 'stopped' as const, why: stopped } : { kind: 'error' as const, error: err instanceof Error ? err : new Error(String(err)) }))
  return {
    id: job.id,
    stop: (why) => {
      stopped ??= why
      abort.abort(new Error(STOPPED[why]))
    },
    outcome,
  }
}

/**
 * Waits (up to the session wait) until the job's turn on its session has come: every job submitted
 * before it on the session has ended — jobs waiting for one session would else take it in whatever
 * order their waits noticed it free — and no process holds the session: an earlier job of it
 * running here or elsewhere, or a worker that died (its hold goes once the server sees its
 * connection closed). Answers true, or what it still waits for.
 */
async function sessionFor(jobId: string, sessionId: string, ctx: JobContext): Promise<true | string> {
  const end = Date.now() + (ctx.sessionWaitMs ?? SESSION_FREED_MS)
  for (;;) {
    const earlier = await earlierJobOf(ctx.pool, jobId)
    if (earlier === undefined) break
    if (Date.now() >= end) return `job ${earlier}, submitted before it on the session, has not ended`
    await new Promise((r) => setTimeout(r, 100))
  }
  const holder = await ctx.store.freed(sessionId, Math.max(0, end - Date.now()))
  return holder === true ? true : `in use by ${holder}`
}

async function run(job: PgBoss.JobWithMetadata, ctx: JobContext, abort: AbortController): Promise<JobOutcome> {
  const data = parseJobData(job.data, job.id)
  if (!existsSync(data.cwd)) throw new ModloopError('MODLOOP_ERR_JOB', `job ${job.id}: its directory ${data.cwd} does not exist on this worker (${ctx.worker})`, { field: 'cwd' })
  // Waiting is not a run, and the run is recorded only once the session is free, so where its
  // history stood before this job's prompt is not taken from the middle of another job's turn.
  const holder = await sessionFor(job.id, data.sessionId, ctx)
  if (holder !== true) return { kind: 'busy', holder }
  const { attempt, leafBefore } = await recordRun(ctx, job.id, data)
  let prompt = data.prompt
  let resume = data.resume === true
  if (attempt > 1) {
    const transcript = (await ctx.store.read(data.sessionId))?.main
    const point = resumePoint(transcript, data.sessionId, leafBefore, data.prompt)
    // The turn ended before the worker died: the job is done; running it again would do it twice.
    if (point.kind === 'ended') return { kind: 'result', result: point.result, sessionId: data.sessionId, ranAgain: false }
    if (point.kind === 'cut') prompt = CARRY_ON
    // Whatever the earlier run stored, this run goes on from it.
    if (transcript) resume = true
  }
  const log = new JobLog(ctx.pool, job.id, attempt)
  const { query } = await import('../../entry.js')
  let result: SDKResultMessage | undefined
  let turned = false
  try {
    for await (const m of query({ prompt, options: sessionOptions(data, ctx, abort, resume) })) {
      log.add(m)
      turned ||= m.type !== 'system'
      if (m.type === 'system' && m.subtype === 'api_retry' && (m as { error_status?: number | null }).error_status === 429) ctx.rateLimited((m as { retry_delay_ms?: number }).retry_delay_ms ?? 0)
      if (m.type === 'result') result = m
    }
  } catch (err) {
    // Another run took the session between the wait above and this one's hold: not a run either.
    if (!turned && err instanceof ModloopError && err.code === 'MODLOOP_ERR_SESSION_LOCKED') {
      await unrecordRun(ctx, job.id)
      return { kind: 'busy', holder: err.message }
    }
    // A turn that ends in an error subtype yields its result, then throws (as the Agent SDK does).
    if (!result) throw err
  } finally {
    // The session's lines are stored by now (its end waited for them); its messages too, before the job is marked done.
    await log.drain().catch((err: unknown) => ctx.log(`job ${job.id}: its messages did not all reach the queue's database: ${describeError(err)}`))
  }
  if (!result) throw new ModloopError('MODLOOP_ERR_JOB', `job ${job.id}: the session ended without a result`)
  return { kind: 'result', result, sessionId: data.sessionId, ranAgain: attempt > 1 }
}

/** Records this run in `job_run`: the attempt it is, and where the session stood before the job's prompt. */
async function recordRun(ctx: JobContext, jobId: string, data: JobData): Promise<{ attempt: number; leafBefore: string | null }> {
  if (!data.resume) {
    // A job that starts its session: nothing stood before its prompt, and one statement records the run.
    const { rows } = await ctx.pool.query(`INSERT INTO modloop.job_run (job_id, session_id, worker) VALUES ($1, $2, $3)
      ON CONFLICT (job_id) DO UPDATE SET attempts = job_run.attempts + 1, worker = EXCLUDED.worker, updated_at = now() RETURNING attempts`, [jobId, data.sessionId, ctx.worker])
    return { attempt: rows[0].attempts as number, leafBefore: null }
  }
  const known = await ctx.pool.query('UPDATE modloop.job_run SET attempts = attempts + 1, worker = $2, updated_at = now() WHERE job_id = $1 RETURNING attempts, leaf_before', [jobId, ctx.worker])
  if (known.rows[0]) return { attempt: known.rows[0].attempts as number, leafBefore: known.rows[0].leaf_before as string | null }
  const leafBefore = data.resume ? leafOf((await ctx.store.read(data.sessionId))?.main) : null
  await ctx.pool.query('INSERT INTO modloop.job_run (job_id, session_id, leaf_before, worker) VALUES ($1, $2, $3, $4)', [jobId, data.sessionId, leafBefore, ctx.worker])
  return { attempt: 1, leafBefore }
}

/** Takes back a run recorded by recordRun that never took its session: the first is forgotten, so the next takes where the session stands then. */
async function unrecordRun(ctx: JobContext, jobId: string): Promise<void> {
  await ctx.pool.query(`WITH gone AS (DELETE FROM modloop.job_run WHERE job_id = $1 AND attempts = 1)
    UPDATE modloop.job_run SET attempts = attempts - 1 WHERE job_id = $1 AND attempts > 1`, [jobId])
}

function sessionOptions(data: JobData, ctx: JobContext, abort: AbortController, resume: boolean): QueryOptions {
  const o = data.options
  return {
    cwd: data.cwd,
    env: ctx.env,
    builtins: ctx.builtins,
    abortController: abort,
    ...(data.config ?? ctx.config ? { config: data.config ?? ctx.config, configLabel: data.config ? "the job's config" : "the worker's --config" } : {}),
    ...(resume ? { resume: data.sessionId } : { sessionId: data.sessionId }),
    ...(o.model ? { model: o.model } : {}),
    ...(o.maxTurns ? { maxTurns: o.maxTurns } : {}),
    ...(o.maxBudgetUsd ? { maxBudgetUsd: o.maxBudgetUsd } : {}),
    ...(o.permissionMode ? { permissionMode: o.permissionMode } : {}),
    ...(o.allowedTools ? { allowedTools: o.allowedTools } : {}),
    ...(o.disallowedTools ? { disallowedTools: o.disallowedTools } : {}),
    ...(o.appendSystemPrompt ? { appendSystemPrompt: o.appendSystemPrompt } : {}),
    ...(o.script !== undefined ? { script: o.script as QueryOptions['script'] } : {}),
    log: (line) => ctx.log(`session ${data.sessionId}: ${line}`),
  }
}
