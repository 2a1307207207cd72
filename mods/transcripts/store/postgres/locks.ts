import type { Client, Pool } from 'pg'
import { describeError } from '../../../../core/errors.js'
import { connectClient } from './connect.js'
import { lockKey } from './lock-key.js'

type Kind = 'session' | 'job'

/**
 * Advisory locks held on one connection of their own: a lock lives as long as that connection,
 * so when the process holding it dies (kill -9, a lost machine) the server ends the connection and
 * the lock is free again, with nothing left to clean up. Held locks are also known in-process:
 * Postgres would grant the same connection a lock it already holds.
 */
export class AdvisoryLocks {
  private client: Promise<Client> | undefined
  private readonly held = new Set<string>()
  private closed = false

  /** `onLost` hears that the connection dropped: every lock it held is gone (another process may take them now). */
  constructor(private readonly url: string, private readonly pool: Pool, private readonly role: string, private readonly onLost: (cause: string) => void) {}

  /** Takes the lock, or answers false when another holder has it (this process included). */
  async take(kind: Kind, id: string): Promise<boolean> {
    const name = `${kind}:${id}`
    if (this.held.has(name)) return false
    this.held.add(name)
    try {
      const client = await this.connection()
      const { rows } = await client.query('SELECT pg_try_advisory_lock($1::bigint) AS ok', [lockKey(kind, id)])
      if (rows[0]?.ok !== true) this.held.delete(name)
      return rows[0]?.ok === true
    } catch (err) {
      this.held.delete(name)
      throw err
    }
  }

  async free(kind: Kind, id: string): Promise<void> {
    const name = `${kind}:${id}`
    if (!this.held.delete(name)) return
    const client = await this.client?.catch(() => undefined)
    await client?.query('SELECT pg_advisory_unlock($1::bigint)', [lockKey(kind, id)]).catch(() => undefined)
  }

  holds(kind: Kind, id: string): boolean {
    return this.held.has(`${kind}:${id}`)
  }

  /** Who holds the lock elsewhere (the holder's application name), or undefined when it is free or held here. */
  async holderElsewhere(kind: Kind, id: string): Promise<string | undefined> {
    if (this.held.has(`${kind}:${id}`)) return undefined
    const key = BigInt(lockKey(kind, id))
    // A bigint key shows in pg_locks as classid (high 32 bits) and objid (low 32 bits), objsubid 1.
    const high = Number(BigInt.asUintN(64, key) >> 32n)
    const low = Number(BigInt.asUintN(64, key) & 0xffffffffn)
    const { rows } = await this.pool.query(`
      SELECT coalesce(a.application_name, '') AS holder FROM pg_locks l LEFT JOIN pg_stat_activity a ON a.pid = l.pid
      WHERE l.locktype = 'advisory' AND l.classid = $1::bigint::oid AND l.objid = $2::bigint::oid AND l.objsubid = 1 AND l.granted
        AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())`, [high, low])
    return rows.length > 0 ? (rows[0].holder || 'another database session') : undefined
  }

  /** The dedicated connection, opened on first use and again after it was lost. */
  async connection(): Promise<Client> {
    if (this.closed) throw new Error('the lock connection was closed')
    this.client ??= connectClient(this.url, this.role).then((client) => {
      const lost = (why: string) => {
        if (this.closed) return
        this.client = undefined
        const had = this.held.size
        this.held.clear()
        if (had > 0) this.onLost(why)
      }
      client.on('error', (err) => lost(describeError(err)))
      client.on('end', () => lost('the connection ended'))
      return client
    }, (err: unknown) => {
      this.client = undefined
      throw err
    })
    return this.client
  }

  async close(): Promise<void> {
    this.closed = true
    this.held.clear()
    const client = await this.client?.catch(() => undefined)
    this.client = undefined
    await client?.end().catch(() => undefined)
  }
}
