import type { StructuredPatchHunk } from 'diff'
import type { LinesChanged } from '../../core/tools/tool.js'
import { numberLine } from './numbered-lines.js'

export type Hunk = StructuredPatchHunk

// A rewrite of a large file can make the diff expensive; past this the result just has no hunks.
const DIFF_TIMEOUT_MS = 1_000

/** The hunks between two versions of a file, line endings normalised so CRLF files diff cleanly. */
export async function hunksOf(path: string, before: string, after: string): Promise<Hunk[]> {
  // Loaded on the first edit, not at start-up.
  const { structuredPatch } = await import('diff')
  const lf = (s: string) => s.replace(/\r\n/g, '\n')
  return structuredPatch(path, path, lf(before), lf(after), undefined, undefined, { context: 3, timeout: DIFF_TIMEOUT_MS })?.hunks ?? []
}

/** The lines a patch adds and removes, as the session's code-change totals count them. */
export function linesChangedBy(hunks: readonly Hunk[]): LinesChanged {
  let added = 0
  let removed = 0
  for (const hunk of hunks) {
    for (const line of hunk.lines) {
      if (line.startsWith('+')) added++
      else if (line.startsWith('-')) removed++
    }
  }
  return { added, removed }
}

/**
 * The lines a new file's content adds, counted as Claude Code counts them: the pieces between
 * newlines, so a final newline counts one more line, and an empty file none.
 */
export const linesOfNewFile = (content: string): LinesChanged => ({ added: content === '' ? 0 : content.split('\n').length, removed: 0 })

/** The changed regions as the file now reads them, numbered like `cat -n`, for the model. */
export function snippetOf(hunks: readonly Hunk[], maxLines = 60): string {
  const out: string[] = []
  for (const hunk of hunks) {
    if (out.length > 0) out.push('...')
    let n = hunk.newStart
    for (const line of hunk.lines) {
      if (line.startsWith('-') || line.startsWith('\\')) continue
      out.push(numberLine(n++, line.slice(1)))
    }
  }
  if (out.length <= maxLines) return out.join('\n')
  return `${out.slice(0, maxLines).join('\n')}\n... (${out.length - maxLines} more lines of changes)`
}
