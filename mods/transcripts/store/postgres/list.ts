import { sessionInfo, type SessionInfo } from '../list.js'
import { transcriptPath } from '../paths.js'
import { parseTranscript } from '../transcript-read.js'
import type { PostgresStore } from './pg-store.js'

type Env = Record<string, string | undefined>

/** The sessions of the project of `cwd` that the store keeps, most recently active first (as `listSessions` lists files). */
export async function listStoredSessions(store: PostgresStore, options: { cwd: string; env?: Env; limit?: number }): Promise<SessionInfo[]> {
  const pool = await store.db()
  const { rows: heads } = await pool.query('SELECT id, updated_at, bytes FROM modloop.session WHERE cwd = $1 ORDER BY updated_at DESC LIMIT $2', [options.cwd, options.limit ?? null])
  if (heads.length === 0) return []
  const ids = heads.map((h: { id: string }) => h.id)
  const { rows } = await pool.query(`SELECT session_id, line FROM modloop.session_line WHERE session_id = ANY($1::uuid[]) AND agent_id = '' ORDER BY session_id, seq`, [ids])
  const text = new Map<string, string>()
  for (const r of rows as { session_id: string; line: string }[]) text.set(r.session_id, `${text.get(r.session_id) ?? ''}${r.line}\n`)
  return heads.flatMap((h: { id: string; updated_at: Date; bytes: string }) => {
    const path = transcriptPath(options.cwd, h.id, options.env)
    const info = sessionInfo(parseTranscript(text.get(h.id) ?? '', path).entries, { sessionId: h.id, path, mtimeMs: h.updated_at.getTime(), size: Number(h.bytes) })
    return info ? [info] : []
  })
}
