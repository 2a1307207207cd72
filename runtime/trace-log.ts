import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs'
import { dirname } from 'node:path'
import type { ProvenanceRecord } from '../core/trace/record.js'

const MAX_STRING = 2_000
const MAX_ITEMS = 20
const MAX_DEPTH = 8
// A long session keeps its latest records, as many as fit in this many characters of JSON (a
// record of a large tool result takes ~6K, a small rewrite ~100-200); `modloop why` on an older
// call reads the trace file, which keeps them all.
const MAX_CHARS = 256_000

/**
 * One session's provenance: the latest records in memory, and — once the session has a transcript —
 * each appended as one JSON line to the trace file beside it, so `modloop why` can read it later.
 * Long strings and lists are cut in both (a whole history or a large tool result is not worth
 * keeping twice), so memory stays bounded however long the session runs.
 *
 * The file is written off the critical path: the lines of one turn of the event loop go out
 * together in one write on an fd kept open, after the work that made them (a tool round wrote
 * 3-6 records, each an open, a write and a close: ~1 ms of its gap). A record is cut and made
 * into its line then too, not when it is added: a round's model.request rewrite (the prompt-cache
 * breakpoints) took ~13% of a tool round's CPU to cut and serialise before its request could go
 * out, and now waits until the request is sent. At most one record waits: the next one added
 * makes its line first, so a burst of records over large results does not hold them all (and the
 * lines keep the order the records came in). A process killed outright loses at most the records
 * of its last turn; `close` (the session's end) and the process's exit write what is left.
 */
export class ProvenanceLog {
  // Memory keeps each record as its JSON line, as the file does: a cut string is a V8 slice that
  // would hold its whole source (a 70K tool result) alive, and a line is smaller than its objects.
  private readonly lines: { subject: string; line: string }[] = []
  private chars = 0
  private unwritten: string[] = []
  // The file the unwritten lines go to, as it was when they were made (a closing session no longer names it).
  private target: string | undefined
  private fd: number | undefined
  private failed = false
  /** The record added last, not yet made into its line, and the file it goes to. */
  private waiting: { record: ProvenanceRecord; file: string | undefined } | undefined
  private scheduled = false

  constructor(private readonly fileOf: () => string | undefined = () => undefined) {}

  /** The records in memory, oldest first. */
  get records(): ProvenanceRecord[] {
    this.settle()
    return this.lines.map((l) => JSON.parse(l.line) as ProvenanceRecord)
  }

  add(record: ProvenanceRecord): void {
    this.settle()
    this.waiting = { record, file: this.failed ? undefined : this.fileOf() }
    if (this.scheduled) return
    this.scheduled = true
    hookExit()
    unflushed.add(this)
    setImmediate(() => {
      this.scheduled = false
      this.flush()
    })
  }

  /** Makes the waiting record into its line: kept in memory, and queued for the file. */
  private settle(): void {
    const waiting = this.waiting
    if (!waiting) return
    this.waiting = undefined
    const { record, file } = waiting
    const line = JSON.stringify({ ...record, before: clipSide(record.before), after: clipSide(record.after) })
    this.lines.push({ subject: record.subject, line })
    this.chars += line.length
    let drop = 0
    while (this.chars > MAX_CHARS && this.lines.length - drop > 1) this.chars -= this.lines[drop++]!.line.length
    if (drop > 0) this.lines.splice(0, drop)
    if (!file || this.failed) return
    if (file !== this.target) {
      this.write()
      this.release()
      this.target = file
    }
    this.unwritten.push(`${line}\n`)
  }

  /** Writes the lines not yet in the file, the waiting record's with them. */
  flush(): void {
    unflushed.delete(this)
    this.settle()
    this.write()
  }

  private write(): void {
    if (this.unwritten.length === 0) return
    const text = this.unwritten.join('')
    this.unwritten = []
    const file = this.target
    if (!file || this.failed) return
    try {
      if (this.fd === undefined) {
        mkdirSync(dirname(file), { recursive: true })
        this.fd = openSync(file, 'a')
      }
      const bytes = Buffer.from(text, 'utf8')
      for (let off = 0; off < bytes.length;) off += writeSync(this.fd, bytes, off, bytes.length - off)
    } catch {
      // The in-memory trace stands; a trace file that cannot be written costs only `modloop why` later.
      this.failed = true
    }
  }

  /** Writes what is left and lets the file go (the session ended). */
  close(): void {
    this.flush()
    this.release()
  }

  private release(): void {
    if (this.fd !== undefined) closeSync(this.fd)
    this.fd = undefined
  }

  /** The records about one subject (a tool_use_id, or `prompt`), in the order they happened. */
  why(subject: string): ProvenanceRecord[] {
    this.settle()
    return this.lines.filter((l) => l.subject === subject).map((l) => JSON.parse(l.line) as ProvenanceRecord)
  }
}

// Logs with lines waiting for their turn of the event loop: a process that exits first writes them.
const unflushed = new Set<ProvenanceLog>()
let exitHooked = false
function hookExit(): void {
  if (exitHooked) return
  exitHooked = true
  process.once('exit', () => { for (const log of unflushed) log.flush() })
}

// A compaction's `before` is the whole history: the record keeps its start and says how much is left out.
// Each side of a record keeps at most SIDE_CHARS characters of strings: a model.request rewrite
// (a prompt-cache breakpoint) otherwise copied the system prompt, every tool's schema and twenty
// messages, twice, on every round (~1 ms of a tool round's gap).
const SIDE_CHARS = 4_000

function clipSide(value: unknown): unknown {
  return clip(value, 0, { left: SIDE_CHARS })
}

function clip(value: unknown, depth: number, budget: { left: number }): unknown {
  if (typeof value === 'string') {
    const keep = Math.min(value.length, MAX_STRING, budget.left)
    budget.left -= keep
    return keep < value.length ? `${value.slice(0, keep)}... (${value.length} chars)` : value
  }
  // JSON has no bigint: the line would not be written, and the record would be lost.
  if (typeof value === 'bigint') return `${value}n`
  if (typeof value !== 'object' || value === null) return value
  if (depth >= MAX_DEPTH || budget.left <= 0) return '...'
  // Index loops rather than slice/map and Object.entries: a round's records walk ~200 values, most
  // often while the code is still cold, where each array made along the way counts.
  if (Array.isArray(value)) {
    const n = Math.min(value.length, MAX_ITEMS)
    const items: unknown[] = []
    for (let i = 0; i < n; i++) items.push(budget.left > 0 ? clip(value[i], depth + 1, budget) : '...')
    if (value.length > MAX_ITEMS) items.push(`... ${value.length - MAX_ITEMS} more items`)
    return items
  }
  const out: Record<string, unknown> = {}
  const keys = Object.keys(value)
  // Past the budget a value is not read at all: a getter there (a deferred tool's schema, made on
  // first read) would do its work for a record that keeps none of it.
  for (let i = 0; i < keys.length; i++) out[keys[i]!] = budget.left > 0 ? clip((value as Record<string, unknown>)[keys[i]!], depth + 1, budget) : '...'
  return out
}
