import { appendFileSync, mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import type { ProvenanceRecord } from './record.js'

const MAX_STRING = 2_000
const MAX_ITEMS = 20
const MAX_DEPTH = 8
// A long session keeps its latest records; `modloop why` on an old call reads the trace file.
const MAX_RECORDS = 5_000

/** `<dir>/<session>.jsonl` → `<dir>/<session>.trace.jsonl`: the trace sits beside its transcript. */
export function traceFileOf(transcriptPath: string): string {
  return transcriptPath.replace(/\.jsonl$/, '') + '.trace.jsonl'
}

/**
 * One session's provenance: the latest records in memory, and — once the session has a transcript —
 * each appended as one JSON line to the trace file beside it, so `modloop why` can read it later.
 * Long strings and lists are cut in both (a whole history or a large tool result is not worth
 * keeping twice), so memory stays bounded however long the session runs.
 */
export class ProvenanceLog {
  readonly records: ProvenanceRecord[] = []
  private madeDir = false

  constructor(private readonly fileOf: () => string | undefined = () => undefined) {}

  add(record: ProvenanceRecord): void {
    const kept = { ...record, before: clip(record.before, 0), after: clip(record.after, 0) }
    this.records.push(kept)
    if (this.records.length > MAX_RECORDS) this.records.splice(0, this.records.length - MAX_RECORDS)
    const file = this.fileOf()
    if (!file) return
    try {
      if (!this.madeDir) mkdirSync(dirname(file), { recursive: true })
      this.madeDir = true
      appendFileSync(file, `${JSON.stringify(kept)}\n`)
    } catch {
      // The in-memory trace stands; a trace file that cannot be written costs only `modloop why` later.
    }
  }

  /** The records about one subject (a tool_use_id, or `prompt`), in the order they happened. */
  why(subject: string): ProvenanceRecord[] {
    return this.records.filter((r) => r.subject === subject)
  }
}

// A compaction's `before` is the whole history: the record keeps its start and says how much is left out.
function clip(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}… (${value.length} chars)` : value
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
