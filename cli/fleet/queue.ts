import type PgBoss from 'pg-boss'
import type { Pool } from 'pg'
import { describeError, ModloopError } from '../../core/errors.js'
import { checkUrl, createPool, redact, unreachable } from '../../mods/transcripts/store/postgres/connect.js'
import { ensureFleetSchema, setUpUnderLock } from './fleet-schema.js'

/** The pg-boss queue every worker takes jobs from and `submit` puts them on. */
export const QUEUE = 'modloop-jobs'
/** pg-boss's schema (its default). */
export const BOSS_SCHEMA = 'pgboss'
/** What workers listen on: a job was submitted or handed back, or the queue was throttled. */
export const WAKE_CHANNEL = 'modloop_jobs'
/** What `submit --wait` and `jobs --follow` listen on: a job has new messages or ended (payload: its id). */
export const MESSAGES_CHANNEL = 'modloop_job_messages'

/** How many times a job runs at most: a worker dying counts as a run; a worker shutting down does not. */
export const DEFAULT_RETRIES = 3

export interface Queue {
  url: string
  boss: PgBoss
  /** The pool pg-boss runs on, shared with the fleet's own tables. */
  pool: Pool
  close(): Promise<void>
}

/**
 * Opens the queue at `url`: pg-boss on a pool of ours (its tables made or migrated on first use),
 * the queue and the fleet's tables made when missing. `supervise`: this process takes its turn at
 * pg-boss's maintenance (expiring, archiving, deleting old jobs) — workers do, one-shot commands not.
 */
export async function openQueue(url: string, options: { role: string; supervise: boolean; log: (line: string) => void; source?: string }): Promise<Queue> {
  const source = options.source ?? '--queue'
  checkUrl(url, source)
  const pool = await createPool(url, options.role, options.log, 4)
  // CommonJS: its export is the default export under Node, the module itself where a bundle requires it.
  const mod = await import('pg-boss') as unknown as { default?: typeof PgBoss }
  const Boss = mod.default ?? (mod as unknown as typeof PgBoss)
  const boss = new Boss({
    db: { executeSql: (text: string, values: unknown[]) => pool.query(text, values) },
    schema: BOSS_SCHEMA, supervise: options.supervise, schedule: false, migrate: true,
  })
  boss.on('error', (err) => options.log(`queue ${redact(url)}: ${describeError(err)}`))
  try {
    await setUpUnderLock(pool, async () => {
      await boss.start()
      await ensureFleetSchema(pool)
      if (!await boss.getQueue(QUEUE)) await boss.createQueue(QUEUE, { name: QUEUE, retryLimit: DEFAULT_RETRIES, retryDelay: 0 })
    })
  } catch (err) {
    await boss.stop({ graceful: false, close: false }).catch(() => undefined)
    await pool.end().catch(() => undefined)
    if (err instanceof ModloopError) throw err
    throw unreachable(url, err, source)
  }
  return {
    url, boss, pool,
    close: async () => {
      await boss.stop({ graceful: false, close: false, wait: true }).catch(() => undefined)
      await pool.end().catch(() => undefined)
    },
  }
}
