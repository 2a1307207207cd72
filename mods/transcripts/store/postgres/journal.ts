import type { Pool } from 'pg'
import { ModloopError } from '../../../../core/errors.js'
import type { Journal } from '../journals.js'
import { appendLines, type LineRow } from './schema.js'

/**
 * The lines of one held session on their way to Postgres. `add` numbers each line (per
 * transcript, going on from what the store had) and queues it; `flush` sends everything queued
 * in one statement, after the flushes before it. A batch that failed stays queued and goes again
 * with the next flush; lines already stored are skipped then, so none is stored twice.
 */
export class PgJournal implements Journal {
  private readonly queued: LineRow[] = []
  private chain: Promise<void> = Promise.resolve()
  private resending = false

  constructor(
    private readonly pool: Pool,
    private readonly sessionId: string,
    private cwd: string | undefined,
    private readonly next: Map<string, number>,
  ) {}

  add(text: string, agentId = ''): void {
    for (const line of text.split('\n')) {
      if (line === '') continue
      // A session held before its first line names no project: its lines carry it.
      this.cwd ??= cwdOf(line)
      const seq = this.next.get(agentId) ?? 0
      this.queued.push({ agent: agentId, seq, line })
      this.next.set(agentId, seq + 1)
    }
  }

  flush(): Promise<void> {
    const run = this.chain.then(() => this.send())
    this.chain = run.catch(() => undefined)
    return run
  }

  private async send(): Promise<void> {
    if (this.queued.length === 0) return
    const batch = this.queued.slice()
    let added: number
    try {
      added = await appendLines(this.pool, this.sessionId, this.cwd ?? '', batch)
    } catch (err) {
      this.resending = true
      throw err
    }
    this.queued.splice(0, batch.length)
    const resent = this.resending
    this.resending = false
    // Lines already there that were never sent before: someone else wrote this session (the lock should have stopped it).
    if (added < batch.length && !resent) {
      throw new ModloopError('MODLOOP_ERR_SESSION_LOCKED', `session ${this.sessionId}: ${batch.length - added} of ${batch.length} lines were already stored by another writer; they are kept only in the local transcript`)
    }
  }
}

function cwdOf(line: string): string | undefined {
  try {
    const cwd = (JSON.parse(line) as { cwd?: unknown }).cwd
    return typeof cwd === 'string' ? cwd : undefined
  } catch {
    return undefined
  }
}
