import { appendFileSync, mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import type { ProvenanceRecord } from './record.js'

const MAX_STRING = 2_000
const MAX_ITEMS = 20

/** `<dir>/<session>.jsonl` → `<dir>/<session>.trace.jsonl`: the trace sits beside its transcript. */
export function traceFileOf(transcriptPath: string): string {
  return transcriptPath.replace(/\.jsonl$/, '') + '.trace.jsonl'
}

/**
 * One session's provenance: every record in memory, and — once the session has a transcript —
 * each appended as one JSON line to the trace file beside it, so `modloop why` can read it later.
 * Long strings and lists are cut in the file (a whole history is not worth repeating there).
 */
export class ProvenanceLog {
  readonly records: ProvenanceRecord[] = []
  private madeDir = false

  constructor(private readonly fileOf: () => string | undefined = () => undefined) {}

  add(record: ProvenanceRecord): void {
    this.records.push(record)
    const file = this.fileOf()
    if (!file) return
    try {
      if (!this.madeDir) mkdirSync(dirname(file), { recursive: true })
      this.madeDir = true
      appendFileSync(file, `${JSON.stringify(record, clip)}\n`)
    } catch {
      // The in-memory trace stands; a trace file that cannot be written costs only `modloop why` later.
    }
  }

  /** The records about one subject (a tool_use_id, or `prompt`), in the order they happened. */
  why(subject: string): ProvenanceRecord[] {
    return this.records.filter((r) => r.subject === subject)
  }
}

// A compaction's `before` is the whole history: the file keeps its start and says how much is left out.
function clip(_key: string, value: unknown): unknown {
  if (typeof value === 'string' && value.length > MAX_STRING) return `${value.slice(0, MAX_STRING)}… (${value.length} chars)`
  if (Array.isArray(value) && value.length > MAX_ITEMS) return [...value.slice(0, MAX_ITEMS), `… ${value.length - MAX_ITEMS} more items`]
  return value
}
