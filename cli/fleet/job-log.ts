import type { Pool } from 'pg'
import type { SDKMessage } from '../../core/loop/messages.js'
import { MESSAGES_CHANNEL } from './queue.js'

/**
 * A job's messages on their way to `modloop.job_message`, where `submit --wait` and `jobs <id>`
 * read them as they arrive. Messages queue up while one insert is out, and go in the next one:
 * the session never waits on this, and the order is kept. Each insert notifies the readers.
 */
export class JobLog {
  private readonly queued: string[] = []
  private sending: Promise<void> | undefined
  private failure: unknown

  constructor(private readonly pool: Pool, private readonly jobId: string, private readonly attempt: number) {}

  add(message: SDKMessage): void {
    this.queued.push(JSON.stringify(message))
    this.sending ??= this.send()
  }

  /** Resolves once every message added is stored; rejects with the first failure. */
  async drain(): Promise<void> {
    while (this.sending) await this.sending
    if (this.failure !== undefined) throw this.failure
  }

  private async send(): Promise<void> {
    try {
      while (this.queued.length > 0) {
        const batch = this.queued.splice(0)
        await this.pool.query(`
          WITH ins AS (INSERT INTO modloop.job_message (job_id, attempt, message) SELECT $1, $2, m FROM unnest($3::text[]) AS t(m) RETURNING 1)
          SELECT pg_notify($4, $1::text) FROM (SELECT count(*) FROM ins) AS c`, [this.jobId, this.attempt, batch, MESSAGES_CHANNEL])
      }
    } catch (err) {
      this.failure ??= err
      this.queued.length = 0
    } finally {
      this.sending = undefined
    }
  }
}
