import { existsSync } from 'node:fs'
import type { Pool } from 'pg'
import { ModloopError } from '../../../../core/errors.js'
import type { SessionStore, StoredSession } from '../../../../core/session/store.js'
import { attachJournal } from '../journals.js'
import { acquireSessionLock } from '../lock.js'
import { traceFileOf, transcriptPath } from '../paths.js'
import { restoreSession } from '../restore.js'
import { parseTranscript } from '../transcript-read.js'
import { checkUrl, createPool, redact, unreachable } from './connect.js'
import { PgJournal } from './journal.js'
import { AdvisoryLocks } from './locks.js'
import { ensureSessionSchema, nextSeqs, readSessionText, type StoredText } from './schema.js'
import { writeWorkingCopy } from './working-copy.js'

type Env = Record<string, string | undefined>

export interface PostgresStoreOptions {
  /** Where the URL came from, for errors (`--session-store`, a config's `sessionStore.postgres`). */
  source?: string
  /** Warnings and errors of idle connections; default: stderr. */
  log?: (line: string) => void
  /** The connection holding the session locks was lost while it held some: by default a warning in the log. */
  onLost?: (why: string) => void
}

/**
 * The Postgres session store: the record of every session is in the database (schema.ts), so a
 * session written on one machine resumes on another. The process running a session keeps a local
 * working copy of it where the file store would (`transcriptPath`): the transcripts mod appends
 * there as always and hands each line to the session's journal, which stores it before the
 * message reaches the caller. Loading a session writes its working copy from the database first.
 * One writer per session: an advisory lock held on a connection of its own (locks.ts).
 */
export class PostgresStore implements SessionStore {
  readonly url: string
  private readonly source: string
  private readonly log: (line: string) => void
  private readonly onLost: ((why: string) => void) | undefined
  private pool: Promise<Pool> | undefined
  private locks: AdvisoryLocks | undefined
  private readonly cwdOf = new Map<string, string>()
  private readonly releasing = new Set<Promise<void>>()

  constructor(url: string, options: PostgresStoreOptions = {}) {
    this.source = options.source ?? 'session store'
    this.url = checkUrl(url, this.source)
    this.log = options.log ?? ((line) => process.stderr.write(`modloop: ${line}\n`))
    this.onLost = options.onLost
  }

  /** The pool, with the store's tables made on first use. */
  async db(): Promise<Pool> {
    this.pool ??= (async () => {
      const pool = await createPool(this.url, 'sessions', this.log)
      try {
        await ensureSessionSchema(pool)
      } catch (err) {
        await pool.end().catch(() => undefined)
        throw unreachable(this.url, err, this.source)
      }
      return pool
    })()
    this.pool.catch(() => { this.pool = undefined })
    return this.pool
  }

  /** The advisory locks of this store's process (opened on first use). */
  async advisoryLocks(): Promise<AdvisoryLocks> {
    const pool = await this.db()
    this.locks ??= new AdvisoryLocks(this.url, pool, 'sessions', (why) => {
      this.log(`the session store's lock connection was lost (${why}): the sessions this process runs are no longer locked against other writers`)
      this.onLost?.(why)
    })
    return this.locks
  }

  locationOf(cwd: string, sessionId: string, env?: Env): string {
    const location = transcriptPath(cwd, sessionId, env)
    this.cwdOf.set(location, cwd)
    return location
  }

  async exists(_cwd: string, sessionId: string): Promise<boolean> {
    const { rows } = await (await this.db()).query('SELECT 1 FROM modloop.session WHERE id = $1', [sessionId])
    return rows.length > 0
  }

  traceOf(location: string): string {
    return traceFileOf(location)
  }

  async load({ id, cwd, env, fork, at }: { id?: string; cwd: string; env?: Env; fork: boolean; at?: string }): Promise<StoredSession> {
    const pool = await this.db()
    const sessionId = id ?? await this.latest(pool, cwd)
    const stored = await readSessionText(pool, sessionId)
    if (!stored) throw new ModloopError('MODLOOP_ERR_SESSION', `No conversation found with session ID: ${sessionId} (in the session store at ${redact(this.url)})`, { field: 'resume' })
    const location = transcriptPath(stored.cwd, sessionId, env)
    const locks = await this.advisoryLocks()
    if (locks.holds('session', sessionId) && !fork) throw this.locked(sessionId, 'this process (another query of it still runs that session)')
    const holder = await locks.holderElsewhere('session', sessionId)
    if (holder && !fork) throw this.locked(sessionId, holder)
    // A fork of a session running here reads the working copy its writer appends to; otherwise the store's text is the record.
    const running = locks.holds('session', sessionId) || holder !== undefined
    if (!(fork && running && existsSync(location))) writeWorkingCopy(location, stored)
    this.cwdOf.set(location, stored.cwd)
    return restoreSession(sessionId, location, parseTranscript(stored.main, location), at)
  }

  async hold(location: string, sessionId: string): Promise<() => void> {
    const pool = await this.db()
    const locks = await this.advisoryLocks()
    if (!await locks.take('session', sessionId)) {
      throw this.locked(sessionId, locks.holds('session', sessionId) ? 'this process (another query of it still runs that session)' : await locks.holderElsewhere('session', sessionId) ?? 'another process')
    }
    let journal: PgJournal
    let releaseFile: () => void
    try {
      // Read once the lock is ours: the last holder's lines are all in by then.
      journal = new PgJournal(pool, sessionId, this.cwdOf.get(location), await nextSeqs(pool, sessionId))
      // The working copy is a transcript file like any: no local process may write it beside this one.
      releaseFile = acquireSessionLock(location, sessionId)
    } catch (err) {
      await locks.free('session', sessionId)
      throw err
    }
    const detach = attachJournal(location, journal)
    let released = false
    return () => {
      if (released) return
      released = true
      detach()
      releaseFile()
      // The lock goes only after the last lines are stored: the next writer goes on after them.
      const done = journal.flush().catch((err) => this.log(`session ${sessionId}: its last lines did not reach the session store: ${String(err)}`))
        .then(() => locks.free('session', sessionId))
      this.releasing.add(done)
      void done.finally(() => this.releasing.delete(done))
    }
  }

  /**
   * Waits up to `ms` for any other hold on the session to end, this process's queries included;
   * answers true when it did, else who holds it still. A process that died lets go when the server
   * notices its connection closed, a moment later.
   */
  async freed(sessionId: string, ms: number): Promise<true | string> {
    const locks = await this.advisoryLocks()
    for (const end = Date.now() + ms; ;) {
      const holder = locks.holds('session', sessionId) ? 'this process (another query of it still runs that session)' : await locks.holderElsewhere('session', sessionId)
      if (holder === undefined) return true
      if (Date.now() >= end) return holder
      await new Promise((r) => setTimeout(r, 100))
    }
  }

  /** A session's stored text (undefined: not in the store). */
  async read(sessionId: string): Promise<StoredText | undefined> {
    return readSessionText(await this.db(), sessionId)
  }

  /** Resolves once every session this process let go of is stored and unlocked. */
  async settled(): Promise<void> {
    while (this.releasing.size > 0) await Promise.all([...this.releasing])
  }

  async close(): Promise<void> {
    await this.settled()
    await this.locks?.close()
    const pool = await this.pool?.catch(() => undefined)
    this.pool = undefined
    await pool?.end().catch(() => undefined)
  }

  private async latest(pool: Pool, cwd: string): Promise<string> {
    const { rows } = await pool.query('SELECT id FROM modloop.session WHERE cwd = $1 ORDER BY updated_at DESC LIMIT 1', [cwd])
    if (rows.length === 0) throw new ModloopError('MODLOOP_ERR_SESSION', `No conversation found to continue in ${cwd} (in the session store at ${redact(this.url)})`, { field: 'continue' })
    return rows[0].id as string
  }

  private locked(sessionId: string, holder: string): ModloopError {
    return new ModloopError('MODLOOP_ERR_SESSION_LOCKED', `session ${sessionId} is in use by ${holder}; wait for it to end, or fork it with --fork-session (session store at ${redact(this.url)})`)
  }
}
