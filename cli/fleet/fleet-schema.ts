import type { Pool } from 'pg'
import { SCHEMA_LOCK } from '../../mods/transcripts/store/postgres/schema.js'
import { inTransaction } from '../../mods/transcripts/store/postgres/transaction.js'

/**
 * What the fleet keeps beside pg-boss's own tables, in schema `modloop` (beside the session store's):
 * - job_message: every message a job's session produced, in order, for `submit --wait` and `jobs <id>`
 *   (`attempt` tells the runs of a job apart when a worker died and another went on);
 * - job_run: which session a job runs and where its history stood before it (`leaf_before`), so a
 *   job run again after a worker died resumes that session, or completes if its turn had ended;
 * - queue_throttle: until when no worker starts a job of the queue (the API answered 429).
 */
const DDL = `
  CREATE SCHEMA IF NOT EXISTS modloop;
  CREATE TABLE IF NOT EXISTS modloop.job_message (
    id bigserial PRIMARY KEY,
    job_id uuid NOT NULL,
    attempt integer NOT NULL,
    message text NOT NULL
  );
  CREATE INDEX IF NOT EXISTS job_message_job ON modloop.job_message (job_id, id);
  CREATE TABLE IF NOT EXISTS modloop.job_run (
    job_id uuid PRIMARY KEY,
    session_id uuid NOT NULL,
    leaf_before text,
    attempts integer NOT NULL DEFAULT 1,
    worker text NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
  );
  CREATE TABLE IF NOT EXISTS modloop.queue_throttle (
    queue text PRIMARY KEY,
    until timestamptz NOT NULL,
    reason text NOT NULL
  );
`

/** Creates the fleet's tables when they are missing, under the session store's schema lock (both create `modloop`). */
export async function ensureFleetSchema(pool: Pool): Promise<void> {
  const { rows } = await pool.query(`SELECT to_regclass('modloop.queue_throttle') IS NOT NULL AS ready`)
  if (rows[0]?.ready) return
  await inTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK])
    await client.query(DDL)
  })
}

// Taken while a process sets the queue up; another number than SCHEMA_LOCK (a lock of its own).
const QUEUE_LOCK = 7_243_316_002

/**
 * Runs `setUp` — pg-boss's start (it makes or migrates its schema), the fleet's tables, the job
 * queue — one process at a time. Neither pg-boss's install nor its create_queue is guarded against
 * another process doing the same: a worker and a submit starting at once on a new database failed
 * one of them, with a unique violation on pg_namespace (both making the schema `pgboss`) or a
 * deadlock (both making the queue).
 */
export async function setUpUnderLock(pool: Pool, setUp: () => Promise<void>): Promise<void> {
  const client = await pool.connect()
  try {
    await client.query('SELECT pg_advisory_lock($1)', [QUEUE_LOCK])
    try {
      await setUp()
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [QUEUE_LOCK])
    }
  } finally {
    client.release()
  }
}
