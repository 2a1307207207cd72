import { hostname } from 'node:os'
import type { Client, Pool } from 'pg'
import { describeError, ModloopError } from '../../../../core/errors.js'

/**
 * Connections to the Postgres that keeps sessions (and the job queue). `pg` is imported only
 * here, lazily: a run that keeps its sessions in files never loads it.
 */

/** The URL, checked: a `postgres://` or `postgresql://` URL. `what` names where it came from (`--session-store`, a config's `sessionStore.postgres`). */
export function checkUrl(url: string, what: string): string {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new ModloopError('MODLOOP_ERR_USAGE', `${what}: not a URL: "${redact(url)}" (expected postgres://user:password@host:port/database)`, { field: what })
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw new ModloopError('MODLOOP_ERR_USAGE', `${what}: expected a postgres:// URL, not "${redact(url)}"`, { field: what })
  }
  return url
}

/** The URL with its password hidden, for messages. */
export function redact(url: string): string {
  return url.replace(/(\/\/[^:/@]*:)[^@]*@/, '$1***@')
}

/** What the server shows for our connections (pg_stat_activity), so a lock's holder can be named. */
export const applicationName = (role: string) => `modloop ${role} ${hostname()} ${process.pid}`.slice(0, 63)

type Pg = Pick<typeof import('pg'), 'Pool' | 'Client'>

async function pg(): Promise<Pg> {
  // CommonJS: its exports are the default export under Node, and the namespace in a bundle.
  const mod = (await import('pg')) as unknown as Pg & { default?: Pg }
  return mod.default ?? mod
}

/** A pool for short queries. Errors of idle connections (the server restarted) are reported, not thrown. */
export async function createPool(url: string, role: string, log: (line: string) => void, max = 10): Promise<Pool> {
  const { Pool } = await pg()
  const pool = new Pool({ connectionString: url, application_name: applicationName(role), max, idleTimeoutMillis: 30_000, connectionTimeoutMillis: connectTimeoutMs() })
  pool.on('error', (err) => log(`${role}: an idle database connection failed: ${describeError(err)}`))
  return pool
}

/** One connection of its own, connected: what holds advisory locks and listens for notifications. */
export async function connectClient(url: string, role: string): Promise<Client> {
  const { Client } = await pg()
  const client = new Client({ connectionString: url, application_name: applicationName(role), keepAlive: true, connectionTimeoutMillis: connectTimeoutMs() })
  try {
    await client.connect()
  } catch (err) {
    throw unreachable(url, err)
  }
  return client
}

/**
 * How long a connection may take to open. pg waits for good by default: a server (or proxy) that
 * takes the connection and never answers, or a host that drops it, kept every command and worker
 * hanging with no word. PGCONNECT_TIMEOUT (seconds, as libpq reads it) sets it; default 10 s.
 */
function connectTimeoutMs(): number {
  const seconds = Number(process.env.PGCONNECT_TIMEOUT)
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 10_000
}

/** `what` names where the URL came from (`--queue`, `--session-store`, a config's `sessionStore.postgres`), when known. */
export function unreachable(url: string, err: unknown, what?: string): ModloopError {
  return new ModloopError('MODLOOP_ERR_STORE', `${what ? `${what}: ` : ''}cannot reach the database at ${redact(url)}: ${describeError(err)}`, { cause: err, ...(what ? { field: what } : {}) })
}
