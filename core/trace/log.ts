import { appendFileSync, mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import type { ProvenanceRecord } from './record.js'

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
 */
export class ProvenanceLog {
  // Memory keeps each record as its JSON line, as the file does: a cut string is a V8 slice that
  // would hold its whole source (a 70K tool result) alive, and a line is smaller than its objects.
  private readonly lines: { subject: string; line: string }[] = []
  private chars = 0
  private madeDir = false

  constructor(private readonly fileOf: () => string | undefined = () => undefined) {}

  /** The records in memory, oldest first. */
  get records(): ProvenanceRecord[] {
    return this.lines.map((l) => JSON.parse(l.line) as ProvenanceRecord)
  }

  add(record: ProvenanceRecord): void {
    const line = JSON.stringify({ ...record, before: clip(record.before, 0), after: clip(record.after, 0) })
    this.lines.push({ subject: record.subject, line })
    this.chars += line.length
    let drop = 0
    while (this.chars > MAX_CHARS && this.lines.length - drop > 1) this.chars -= this.lines[drop++]!.line.length
    if (drop > 0) this.lines.splice(0, drop)
    const file = this.fileOf()
    if (!file) return
    try {
      if (!this.madeDir) mkdirSync(dirname(file), { recursive: true })
      this.madeDir = true
      appendFileSync(file, `${line}\n`)
    } catch {
      // The in-memory trace stands; a trace file that cannot be written costs only `modloop why` later.
    }
  }

  /** The records about one subject (a tool_use_id, or `prompt`), in the order they happened. */
  why(subject: string): ProvenanceRecord[] {
    return this.lines.filter((l) => l.subject === subject).map((l) => JSON.parse(l.line) as ProvenanceRecord)
  }
}

// A compaction's `before` is the whole history: the record keeps its start and says how much is left out.
function clip(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}… (${value.length} chars)` : value
  // JSON has no bigint: the line would not be written, and the record would be lost.
  if (typeof value === 'bigint') return `${value}n`
  if (typeof value !== 'object' || value === null) return value
  if (depth >= MAX_DEPTH) return '…'
  if (Array.isArray(value)) {
    const items = value.slice(0, MAX_ITEMS).map((v) => clip(v, depth + 1))
    return value.length > MAX_ITEMS ? [...items, `… ${value.length - MAX_ITEMS} more items`] : items
  }
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value)) out[k] = clip(v, depth + 1)
  return out
}
