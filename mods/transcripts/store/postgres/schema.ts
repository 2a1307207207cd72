import type { Pool } from 'pg'
import { inTransaction } from './transaction.js'

/**
 * The tables of the session store, in schema `modloop`: one row per session (its project
 * directory, when it last changed, how much it holds) and its transcript lines, each stored as
 * the exact text of its JSONL line (main transcript: agent_id ''; a subagent's: its id), in order
 * of `seq`. Rows are only ever inserted: append-only, as the files are.
 */
const DDL = `
  CREATE SCHEMA IF NOT EXISTS modloop;
  CREATE TABLE IF NOT EXISTS modloop.session (
    id uuid PRIMARY KEY,
    cwd text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    lines integer NOT NULL DEFAULT 0,
    bytes bigint NOT NULL DEFAULT 0
  );
  CREATE INDEX IF NOT EXISTS session_cwd_updated ON modloop.session (cwd, updated_at DESC);
  CREATE TABLE IF NOT EXISTS modloop.session_line (
    session_id uuid NOT NULL,
    agent_id text NOT NULL DEFAULT '',
    seq integer NOT NULL,
    line text NOT NULL,
    PRIMARY KEY (session_id, agent_id, seq)
  );
`

// Two processes creating the tables at once would collide on the catalog: one creates, the other
// waits. The fleet's tables (cli/fleet/fleet-schema.ts) take the same lock: both create the schema
// `modloop`, and a worker and a `submit` starting at once on a new database made it twice (a
// unique violation on pg_namespace) under two locks.
export const SCHEMA_LOCK = 7_243_316_001

/** Creates the store's tables when they are missing. */
export async function ensureSessionSchema(pool: Pool): Promise<void> {
  const { rows } = await pool.query(`SELECT to_regclass('modloop.session_line') IS NOT NULL AS ready`)
  if (rows[0]?.ready) return
  await inTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK])
    await client.query(DDL)
  })
}

export interface LineRow { agent: string; seq: number; line: string }

/**
 * Appends lines to a session (creating its row with `cwd` on the first), in one statement: all or
 * none are stored. A line already stored (the same session, agent and seq: a batch sent again
 * after its answer was lost) is skipped; answers how many were new.
 */
export async function appendLines(pool: Pool, sessionId: string, cwd: string, rows: readonly LineRow[]): Promise<number> {
  const { rows: out } = await pool.query(`
    WITH ins AS (
      INSERT INTO modloop.session_line (session_id, agent_id, seq, line)
      SELECT $1, a, s, l FROM unnest($3::text[], $4::int[], $5::text[]) AS t(a, s, l)
      ON CONFLICT DO NOTHING
      RETURNING octet_length(line) + 1 AS n
    ), added AS (SELECT count(*) AS lines, coalesce(sum(n), 0) AS bytes FROM ins),
    up AS (
      INSERT INTO modloop.session AS s (id, cwd, lines, bytes)
      SELECT $1, $2, lines, bytes FROM added
      ON CONFLICT (id) DO UPDATE SET updated_at = now(), cwd = CASE WHEN s.cwd = '' THEN EXCLUDED.cwd ELSE s.cwd END, lines = s.lines + EXCLUDED.lines, bytes = s.bytes + EXCLUDED.bytes
    )
    SELECT lines AS added FROM added`, [sessionId, cwd, rows.map((r) => r.agent), rows.map((r) => r.seq), rows.map((r) => r.line)])
  return Number(out[0]?.added ?? 0)
}

/** The next seq of each transcript of a session (main: ''), for a writer that goes on with it. */
export async function nextSeqs(pool: Pool, sessionId: string): Promise<Map<string, number>> {
  const { rows } = await pool.query('SELECT agent_id, max(seq) + 1 AS next FROM modloop.session_line WHERE session_id = $1 GROUP BY agent_id', [sessionId])
  return new Map(rows.map((r: { agent_id: string; next: number }) => [r.agent_id, Number(r.next)]))
}

/** A session's transcripts as the files hold them: the main one, and each subagent's by agent id. */
export interface StoredText { cwd: string; main: string; agents: Map<string, string>; updatedAt: Date; bytes: number }

export async function readSessionText(pool: Pool, sessionId: string): Promise<StoredText | undefined> {
  const head = await pool.query('SELECT cwd, updated_at, bytes FROM modloop.session WHERE id = $1', [sessionId])
  const row = head.rows[0] as { cwd: string; updated_at: Date; bytes: string } | undefined
  if (!row) return undefined
  const { rows } = await pool.query('SELECT agent_id, line FROM modloop.session_line WHERE session_id = $1 ORDER BY agent_id, seq', [sessionId])
  const parts = new Map<string, string[]>()
  for (const r of rows as { agent_id: string; line: string }[]) {
    const list = parts.get(r.agent_id) ?? []
    list.push(r.line)
    parts.set(r.agent_id, list)
  }
  const text = (agent: string) => (parts.get(agent) ?? []).map((l) => `${l}\n`).join('')
  const agents = new Map([...parts.keys()].filter((a) => a !== '').map((a) => [a, text(a)]))
  return { cwd: row.cwd, main: text(''), agents, updatedAt: row.updated_at, bytes: Number(row.bytes) }
}
