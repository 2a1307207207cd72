import type { Pool } from 'pg'
import { lockKey } from '../../mods/transcripts/store/postgres/lock-key.js'
import { inTransaction } from '../../mods/transcripts/store/postgres/transaction.js'
import { BOSS_SCHEMA, QUEUE, WAKE_CHANNEL } from './queue.js'

/**
 * The changes of a job's state that pg-boss has no call for, made on its job table the way its own
 * calls make them (pg-boss 10's table: state, started_on, start_after, retry_count/limit, output).
 */
const JOB = `${BOSS_SCHEMA}.job`

/** Whether the job is still active under the start this worker fetched it with: no one took it back in between. */
export async function stillOurs(pool: Pool, id: string, startedOn: Date): Promise<boolean> {
  // The fetched start came back as a Date (milliseconds); the table keeps microseconds.
  const { rows } = await pool.query(`SELECT 1 FROM ${JOB} WHERE name = $1 AND id = $2 AND state = 'active' AND abs(extract(epoch FROM started_on - $3::timestamptz)) < 0.001`, [QUEUE, id, startedOn])
  return rows.length > 0
}

/**
 * A job this worker stops running without finishing it (it shuts down): back on the queue for the
 * next worker at once. Cleared `started_on` keeps pg-boss from counting the next fetch as a retry.
 */
export async function handBack(pool: Pool, id: string): Promise<boolean> {
  const { rows } = await pool.query(`
    WITH back AS (
      UPDATE ${JOB} SET state = 'retry', start_after = now(), started_on = NULL
      WHERE name = $1 AND id = $2 AND state = 'active' RETURNING id
    )
    SELECT id, pg_notify($3, 'handed back') FROM back`, [QUEUE, id, WAKE_CHANNEL])
  return rows.length > 0
}

/**
 * A job submitted before this one on the same session that has not ended (waiting, to run again,
 * or running), if any: the session takes its jobs' prompts in the order they were submitted.
 */
export async function earlierJobOf(pool: Pool, id: string): Promise<string | undefined> {
  const { rows } = await pool.query(`
    SELECT e.id FROM ${JOB} j JOIN ${JOB} e ON e.name = j.name AND e.data->>'sessionId' = j.data->>'sessionId'
    WHERE j.name = $1 AND j.id = $2 AND e.state < 'completed' AND (e.created_on, e.id) < (j.created_on, j.id)
    ORDER BY e.created_on LIMIT 1`, [QUEUE, id])
  return rows[0]?.id as string | undefined
}

/** Fails an active job for good, whatever retries it has left: running it again would end the same way. */
export async function failForGood(pool: Pool, id: string, output: object): Promise<void> {
  await pool.query(`UPDATE ${JOB} SET state = 'failed', completed_on = now(), output = $3::jsonb WHERE name = $1 AND id = $2 AND state = 'active'`, [QUEUE, id, JSON.stringify(output)])
}

export interface Reaped { id: string; failed: boolean }

/**
 * Jobs whose worker died: active for longer than `graceSeconds` (the moment between a fetch and
 * its lock) while no one holds their job lock — a worker holds it on its own connection for as long
 * as it runs the job, and the server drops it with the connection when the worker dies. Each goes
 * back on the queue (the next fetch counts it as a retry), or fails once its retries are spent.
 * Rows are taken FOR UPDATE SKIP LOCKED, so workers reaping at once never take the same job.
 */
export async function reapOrphans(pool: Pool, graceSeconds: number): Promise<Reaped[]> {
  return inTransaction(pool, async (client) => {
    const reaped: Reaped[] = []
    const { rows } = await client.query(`
      SELECT id, retry_count, retry_limit FROM ${JOB}
      WHERE name = $1 AND state = 'active' AND started_on < now() - make_interval(secs => $2)
      ORDER BY started_on LIMIT 50 FOR UPDATE SKIP LOCKED`, [QUEUE, graceSeconds])
    for (const row of rows as { id: string; retry_count: number; retry_limit: number }[]) {
      const free = await client.query('SELECT pg_try_advisory_xact_lock($1::bigint) AS ok', [lockKey('job', row.id)])
      if (free.rows[0]?.ok !== true) continue
      const failed = row.retry_count >= row.retry_limit
      await client.query(failed
        ? `UPDATE ${JOB} SET state = 'failed', completed_on = now(), output = $3::jsonb WHERE name = $1 AND id = $2`
        : `UPDATE ${JOB} SET state = 'retry', start_after = now() WHERE name = $1 AND id = $2`,
      failed ? [QUEUE, row.id, JSON.stringify({ error: `the worker running it stopped ${row.retry_count + 1} times; no runs are left (retry limit ${row.retry_limit})` })] : [QUEUE, row.id])
      reaped.push({ id: row.id, failed })
    }
    if (reaped.some((r) => !r.failed)) await client.query('SELECT pg_notify($1, $2)', [WAKE_CHANNEL, 'reaped'])
    return reaped
  })
}

/** Until when the queue is throttled (the API answered 429), if it is now. */
export async function throttledUntil(pool: Pool): Promise<Date | undefined> {
  const { rows } = await pool.query('SELECT until FROM modloop.queue_throttle WHERE queue = $1 AND until > now()', [QUEUE])
  return rows[0]?.until as Date | undefined
}

/** No worker starts a job for `ms` (or longer, when throttled further already); answers until when. */
export async function throttle(pool: Pool, ms: number, reason: string): Promise<Date> {
  const { rows } = await pool.query(`
    INSERT INTO modloop.queue_throttle AS t (queue, until, reason) VALUES ($1, now() + make_interval(secs => $2), $3)
    ON CONFLICT (queue) DO UPDATE SET until = GREATEST(t.until, EXCLUDED.until), reason = EXCLUDED.reason
    RETURNING until`, [QUEUE, ms / 1000, reason])
  await pool.query('SELECT pg_notify($1, $2)', [WAKE_CHANNEL, 'throttled'])
  return rows[0].until as Date
}

/**
 * The fleet's rows of jobs pg-boss has deleted (it archives finished jobs, then deletes them after
 * its retention): their messages and runs go too. Answers how many jobs' rows went.
 */
export async function forgetDeletedJobs(pool: Pool): Promise<number> {
  const { rows } = await pool.query(`
    WITH gone AS (
      SELECT r.job_id FROM modloop.job_run r
      WHERE r.updated_at < now() - interval '1 hour'
        AND NOT EXISTS (SELECT 1 FROM ${JOB} j WHERE j.name = $1 AND j.id = r.job_id)
        AND NOT EXISTS (SELECT 1 FROM ${BOSS_SCHEMA}.archive a WHERE a.name = $1 AND a.id = r.job_id)
      LIMIT 1000
    ), messages AS (DELETE FROM modloop.job_message m USING gone WHERE m.job_id = gone.job_id)
    DELETE FROM modloop.job_run r USING gone WHERE r.job_id = gone.job_id RETURNING 1`, [QUEUE])
  return rows.length
}

/**
 * Cancels a job that has not ended (pg-boss's own cancel, as one statement) and tells the workers, so
 * the one running it stops its turn. Answers false when the job had ended (or is not on the queue).
 */
export async function cancelJob(pool: Pool, id: string): Promise<boolean> {
  const { rows } = await pool.query(`
    WITH gone AS (
      UPDATE ${JOB} SET state = 'cancelled', completed_on = now()
      WHERE name = $1 AND id = $2 AND state < 'completed' RETURNING id
    )
    SELECT id, pg_notify($3, 'cancelled') FROM gone`, [QUEUE, id, WAKE_CHANNEL])
  return rows.length > 0
}

/** Which of these jobs were cancelled (while a worker runs them). */
export async function cancelledAmong(pool: Pool, ids: string[]): Promise<string[]> {
  const { rows } = await pool.query(`SELECT id FROM ${JOB} WHERE name = $1 AND id = ANY($2::uuid[]) AND state = 'cancelled'`, [QUEUE, ids])
  return (rows as { id: string }[]).map((r) => r.id)
}
