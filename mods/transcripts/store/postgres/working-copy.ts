import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { subagentTranscriptPath } from '../paths.js'
import type { StoredText } from './schema.js'

/**
 * Writes a session as the store has it into the local transcript files: the working copy that a
 * process running the session appends to, and that hooks read as `transcript_path`. Each file is
 * replaced whole (written beside it, then renamed), so a reader never sees half of one.
 */
export function writeWorkingCopy(location: string, stored: Pick<StoredText, 'main' | 'agents'>): void {
  writeTranscriptFile(location, stored.main)
  for (const [agent, text] of stored.agents) writeTranscriptFile(subagentTranscriptPath(location, agent), text)
}

/** Replaces one transcript file with `text` (unless it holds exactly that already). */
export function writeTranscriptFile(path: string, text: string): void {
  if (readOr(path) === text) return
  mkdirSync(dirname(path), { recursive: true })
  const tmp = `${path}.${process.pid}.tmp`
  writeFileSync(tmp, text)
  renameSync(tmp, path)
}

function readOr(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return undefined
  }
}
