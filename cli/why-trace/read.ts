import { readdir, readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { ProvenanceRecord } from '../../core/trace/record.js'

/** Reads a trace file; a torn or foreign line is skipped. */
export async function readTrace(file: string): Promise<ProvenanceRecord[]> {
  const text = await readFile(file, 'utf8')
  const out: ProvenanceRecord[] = []
  for (const line of text.split('\n')) {
    if (!line.trim()) continue
    try {
      const r = JSON.parse(line) as ProvenanceRecord
      if (typeof r.mod === 'string' && typeof r.subject === 'string') out.push(r)
    } catch {
      // a line cut by a crash
    }
  }
  return out
}

/** The trace files of a project directory, most recently written first. */
export async function traceFiles(projectDir: string): Promise<string[]> {
  let names: string[]
  try {
    names = (await readdir(projectDir)).filter((n) => n.endsWith('.trace.jsonl'))
  } catch {
    return []
  }
  const withTimes = await Promise.all(names.map(async (n) => ({ file: join(projectDir, n), mtime: (await stat(join(projectDir, n))).mtimeMs })))
  return withTimes.sort((a, b) => b.mtime - a.mtime).map((f) => f.file)
}
