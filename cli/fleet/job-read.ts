import type { Pool } from 'pg'
import type { SDKMessage, SDKResultMessage } from '../../core/loop/messages.js'
import { BOSS_SCHEMA, QUEUE } from './queue.js'

/** One job as `modloop jobs` shows it. `state` is pg-boss's: created, retry, active, completed, cancelled or failed. */
export interface JobView {
  id: string
  state: string
  sessionId: string | null
  /** The session's result message (completed jobs, and failed ones that had one). */
  result: SDKResultMessage | null
  /** Why it failed, when it did without a result. */
  error?: string
  prompt: string
  createdOn: string
  startedOn: string | null
  completedOn: string | null
  /** How many times a worker took it up. */
  runs: number
  /** Messages its sessions produced so far. */
  messages: number
}

// Completed and failed jobs move to pg-boss's archive after a while (archiveCompletedAfterSeconds): both are read.
const JOBS = `(
  SELECT id, state::text, data, output, created_on, started_on, completed_on, retry_count FROM ${BOSS_SCHEMA}.job WHERE name = $1
  UNION ALL
  SELECT id, state::text, data, output, created_on, started_on, completed_on, retry_count FROM ${BOSS_SCHEMA}.archive WHERE name = $1
) AS j`

const COLUMNS = `j.id, j.state, j.data, j.output, j.created_on, j.started_on, j.completed_on, j.retry_count,
  (SELECT count(*) FROM modloop.job_message m WHERE m.job_id = j.id) AS messages,
  (SELECT attempts FROM modloop.job_run r WHERE r.job_id = j.id) AS runs`

interface Row {
  id: string; state: string; data: { sessionId?: string; prompt?: string } | null; output: { result?: SDKResultMessage; error?: string } | null
  created_on: Date; started_on: Date | null; completed_on: Date | null; retry_count: number; messages: string; runs: number | null
}

export async function listJobs(pool: Pool, limit: number): Promise<JobView[]> {
  const { rows } = await pool.query(`SELECT ${COLUMNS} FROM ${JOBS} ORDER BY j.created_on DESC, j.id LIMIT $2`, [QUEUE, limit])
  return (rows as Row[]).map(view)
}

export async function getJob(pool: Pool, id: string): Promise<JobView | undefined> {
  const { rows } = await pool.query(`SELECT ${COLUMNS} FROM ${JOBS} WHERE j.id = $2`, [QUEUE, id])
  return rows[0] ? view(rows[0] as Row) : undefined
}

/** The job's messages after `afterId`, in order, with the id to go on from. */
export async function jobMessages(pool: Pool, jobId: string, afterId: number): Promise<{ id: number; message: SDKMessage }[]> {
  const { rows } = await pool.query('SELECT id, message FROM modloop.job_message WHERE job_id = $1 AND id > $2 ORDER BY id', [jobId, afterId])
  return (rows as { id: string; message: string }[]).map((r) => ({ id: Number(r.id), message: JSON.parse(r.message) as SDKMessage }))
}

/** The queue's pause after a 429, while it lasts: no worker starts a job until then. */
export async function queuePause(pool: Pool): Promise<{ until: Date; reason: string } | undefined> {
  const { rows } = await pool.query('SELECT until, reason FROM modloop.queue_throttle WHERE queue = $1 AND until > now()', [QUEUE])
  return rows[0] as { until: Date; reason: string } | undefined
}

export const ENDED = new Set(['completed', 'failed', 'cancelled'])

function view(r: Row): JobView {
  return {
    id: r.id, state: r.state, sessionId: r.data?.sessionId ?? null, result: r.output?.result ?? null,
    ...(typeof r.output?.error === 'string' ? { error: r.output.error } : {}),
    prompt: r.data?.prompt ?? '',
    createdOn: r.created_on.toISOString(), startedOn: r.started_on?.toISOString() ?? null, completedOn: r.completed_on?.toISOString() ?? null,
    runs: r.runs ?? 0, messages: Number(r.messages),
  }
}
