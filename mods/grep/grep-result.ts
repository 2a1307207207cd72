import { stat } from 'node:fs/promises'
import type { ToolOutput } from '../../core/tools/tool.js'
import type { GrepInput, SearchSpec } from './grep-input.js'

const MAX_LINE_CHARS = 2000
const DEFAULT_HEAD_LIMIT = 250

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

/** Output lines without ripgrep's kept CR, and long lines (minified files) cut. */
function clean(line: string): string {
  const text = line.endsWith('\r') ? line.slice(0, -1) : line
  return text.length > MAX_LINE_CHARS ? `${text.slice(0, MAX_LINE_CHARS)}... [line cut at ${MAX_LINE_CHARS} characters]` : text
}

/** Newest first, like Glob: recently touched files are the likeliest to matter. */
async function byMtime(files: readonly string[]): Promise<string[]> {
  const dated = await Promise.all(files.map(async (file) => ({ file, mtime: await stat(file).then((s) => s.mtimeMs, () => 0) })))
  dated.sort((a, b) => b.mtime - a.mtime || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0))
  return dated.map((d) => d.file)
}

/**
 * The tool output for engine lines (either engine: they are the same): head_limit and offset
 * applied, the structured result in the shape hooks expect, and the text the model reads.
 */
export async function grepResult(input: GrepInput, spec: SearchSpec, lines: string[]): Promise<ToolOutput> {
  const limit = input.head_limit ?? DEFAULT_HEAD_LIMIT
  const offset = input.offset ?? 0
  const ordered = spec.mode === 'files_with_matches' ? await byMtime(lines) : spec.mode === 'content' ? lines.map(clean) : lines
  const shown = ordered.slice(offset, limit > 0 ? offset + limit : undefined)
  const cut = limit > 0 && ordered.length > offset + limit
  const paging = { ...(cut ? { appliedLimit: limit } : {}), ...(offset > 0 ? { appliedOffset: offset } : {}) }
  const note = cut ? `\n\n(Showing results ${offset + 1}-${offset + shown.length}; more follow: pass offset ${offset + shown.length} to see them.)` : ''

  if (spec.mode === 'files_with_matches') {
    const result = { mode: spec.mode, filenames: shown, numFiles: shown.length, ...paging }
    return { result, text: shown.length === 0 ? 'No files found' : `Found ${plural(shown.length, 'file')}\n${shown.join('\n')}${note}` }
  }
  if (spec.mode === 'content') {
    const content = shown.join('\n')
    const result = { mode: spec.mode, numFiles: 0, filenames: [], content, numLines: shown.length, ...paging }
    return { result, text: shown.length === 0 ? 'No matches found' : content + note }
  }
  // The count follows the last colon: paths may hold colons, numbers do not.
  const numMatches = lines.reduce((sum, l) => sum + (Number(l.slice(l.lastIndexOf(':') + 1)) || 0), 0)
  const content = shown.join('\n')
  const result = { mode: spec.mode, numFiles: lines.length, filenames: [], content, numMatches, ...paging }
  if (lines.length === 0) return { result, text: 'No matches found' }
  return { result, text: `${content}\n\nFound ${plural(numMatches, 'total occurrence')} across ${plural(lines.length, 'file')}.${note}` }
}
