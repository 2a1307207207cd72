import { mkdtempSync, realpathSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { inject } from 'vitest'
import type { Io } from '../../cli/io.js'
import { main } from '../../cli/main.js'
import { createDatabase } from '../../scripts/embedded-postgres.mjs'

/** A database of this test file's own on the shared test server (test/fleet/postgres-setup.ts). */
export async function freshDatabase(): Promise<string> {
  return createDatabase(inject('postgresServer'), `fleet_${randomUUID().replaceAll('-', '').slice(0, 16)}`)
}

/** A query against a database, on a connection of its own. */
export async function sql<T = Record<string, unknown>>(url: string, text: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query(text, params)).rows as T[]
  } finally {
    await client.end()
  }
}

export const tempDir = (prefix: string) => realpathSync(mkdtempSync(join(tmpdir(), `modloop-${prefix}-`)))

export interface Captured { code: number; out: string; err: string }

/** Runs the CLI in-process with its own output captured. */
export async function cli(args: string[], cwd: string, env: Record<string, string | undefined>): Promise<Captured> {
  let out = ''
  let err = ''
  const io: Io = { stdout: { write: (t: string) => (out += t) }, stderr: { write: (t: string) => (err += t) }, cwd, env }
  return { code: await main(args, io), out, err }
}

/** Polls `check` until it answers something other than undefined; the test's own timeout bounds the wait. */
export async function until<T>(check: () => Promise<T | undefined>, everyMs = 50): Promise<T> {
  for (;;) {
    const value = await check()
    if (value !== undefined) return value
    await new Promise((r) => setTimeout(r, everyMs))
  }
}

export interface JobRow { id: string; state: string; output: { result?: { result?: string; is_error: boolean; session_id: string }; error?: string } | null; data: { sessionId: string; prompt: string }; started_on: Date | null }

/** The queue's jobs (live and archived), oldest first. */
export const jobRows = (url: string) => sql<JobRow>(url, `SELECT id, state::text, output, data, started_on FROM pgboss.job WHERE name = 'modloop-jobs' UNION ALL SELECT id, state::text, output, data, started_on FROM pgboss.archive WHERE name = 'modloop-jobs' ORDER BY 1`)

/** Resolves once `count` jobs have ended (completed, failed or cancelled); answers every job. */
export const jobsEnded = (url: string, count: number) => until(async () => {
  const rows = await jobRows(url)
  return rows.filter((r) => ['completed', 'failed', 'cancelled'].includes(r.state)).length >= count ? rows : undefined
}, 100)
