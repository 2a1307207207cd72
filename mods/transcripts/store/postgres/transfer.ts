import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { ModloopError } from '../../../../core/errors.js'
import { findSession } from '../locate.js'
import { acquireSessionLock } from '../lock.js'
import { sessionDirOf, subagentTranscriptPath, transcriptPath } from '../paths.js'
import { redact } from './connect.js'
import type { PostgresStore } from './pg-store.js'
import { appendLines, type LineRow } from './schema.js'
import { writeTranscriptFile } from './working-copy.js'

type Env = Record<string, string | undefined>

export interface Moved {
  sessionId: string
  /** The local transcript. */
  path: string
  /** Lines copied; 0 when the other side had them all already. */
  lines: number
}

/**
 * `sessions push`: a session of the local files into the store. Lines the store has already are
 * not sent again, so a session pushed, resumed elsewhere and pulled back can be pushed once more.
 * Refused while a process writes the session here or through the store, and when the two copies
 * differ (each has lines the other lacks): then one of them is another session's history.
 */
export async function pushSession(store: PostgresStore, sessionId: string, cwd: string, env?: Env): Promise<Moved> {
  const file = await findSession(sessionId, cwd, env)
  const releaseFile = acquireSessionLock(file.path, sessionId)
  try {
    return await underStoreLock(store, sessionId, async () => {
      const local = readLocal(file.path)
      const stored = await store.read(sessionId)
      const rows: LineRow[] = []
      for (const [agent, lines] of local) {
        const have = linesOf(agent === '' ? stored?.main : stored?.agents.get(agent))
        const from = suffixAfter(have, lines, sessionId, agent, 'push', store.url)
        rows.push(...lines.slice(from).map((line, i) => ({ agent, seq: from + i, line })))
      }
      if (rows.length > 0) await appendLines(await store.db(), sessionId, stored?.cwd ?? cwdIn(local.get('') ?? []) ?? cwd, rows)
      return { sessionId, path: file.path, lines: rows.length }
    })
  } finally {
    releaseFile()
  }
}

/** `sessions pull`: a session of the store into the local files (its working copy), for the file store to resume. */
export async function pullSession(store: PostgresStore, sessionId: string, env?: Env): Promise<Moved> {
  const stored = await store.read(sessionId)
  if (!stored) throw new ModloopError('MODLOOP_ERR_SESSION', `No conversation found with session ID: ${sessionId} (in the session store at ${redact(store.url)})`, { field: 'id' })
  const path = transcriptPath(stored.cwd, sessionId, env)
  const releaseFile = acquireSessionLock(path, sessionId)
  try {
    const local = readLocal(path)
    let lines = 0
    const texts = new Map<string, string>([['', stored.main], ...stored.agents])
    for (const [agent, text] of texts) {
      const mine = local.get(agent) ?? []
      const theirs = linesOf(text)
      const shared = suffixAfter(mine, theirs, sessionId, agent, 'pull', store.url)
      // A copy here that went further than the store's is kept as it is.
      if (theirs.length <= shared) continue
      lines += theirs.length - shared
      writeTranscriptFile(agent === '' ? path : subagentTranscriptPath(path, agent), text)
    }
    return { sessionId, path, lines }
  } finally {
    releaseFile()
  }
}

async function underStoreLock<T>(store: PostgresStore, sessionId: string, run: () => Promise<T>): Promise<T> {
  const locks = await store.advisoryLocks()
  if (!await locks.take('session', sessionId)) {
    const holder = await locks.holderElsewhere('session', sessionId)
    throw new ModloopError('MODLOOP_ERR_SESSION_LOCKED', `session ${sessionId} is in use by ${holder ?? 'another process'} through the session store; wait for it to end`)
  }
  try {
    return await run()
  } finally {
    await locks.free('session', sessionId)
  }
}

/**
 * Where `to` goes on past `from`: the number of lines they share when `from` is a prefix of `to`
 * (0 new lines when `to` is a prefix of `from`: the other side is ahead). Two copies that each
 * have lines the other lacks are refused.
 */
function suffixAfter(from: readonly string[], to: readonly string[], sessionId: string, agent: string, verb: 'push' | 'pull', url: string): number {
  const shared = Math.min(from.length, to.length)
  for (let i = 0; i < shared; i++) {
    if (from[i] !== to[i]) {
      const which = agent === '' ? 'its transcript' : `the transcript of its subagent ${agent}`
      throw new ModloopError('MODLOOP_ERR_SESSION', `cannot ${verb} session ${sessionId}: ${which} differs from line ${i + 1} on between this machine and the session store at ${redact(url)} (both went on from there); fork one of them to keep both`, { field: 'id' })
    }
  }
  return Math.min(from.length, to.length)
}

/** The complete lines of a transcript text: a torn last line (no newline) was never acknowledged. */
function linesOf(text: string | undefined): string[] {
  if (!text) return []
  const lines = text.split('\n')
  lines.pop()
  return lines.filter((l) => l.trim() !== '')
}

/** The local transcripts of a session: the main one ('') and its subagents' by agent id. */
function readLocal(path: string): Map<string, string[]> {
  const out = new Map<string, string[]>()
  if (existsSync(path)) out.set('', linesOf(readFileSync(path, 'utf8')))
  const dir = join(sessionDirOf(path), 'subagents')
  const names = existsSync(dir) ? readdirSync(dir) : []
  for (const name of names) {
    const m = /^agent-(.+)\.jsonl$/.exec(name)
    if (m) out.set(m[1]!, linesOf(readFileSync(join(dir, name), 'utf8')))
  }
  return out
}

function cwdIn(lines: readonly string[]): string | undefined {
  for (const line of lines) {
    try {
      const cwd = (JSON.parse(line) as { cwd?: unknown }).cwd
      if (typeof cwd === 'string') return cwd
    } catch { /* a damaged line names nothing */ }
  }
  return undefined
}
