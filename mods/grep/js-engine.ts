import { closeSync, fstatSync, openSync, readSync } from 'node:fs'
import { decodeText } from '../_shared/text-file.js'
import { FILE_TYPES } from './file-types.js'
import { PatternError, UnknownTypeError } from './grep-errors.js'
import type { SearchSpec } from './grep-input.js'
import { compilePattern, type LinearPattern } from './js-regex.js'
import { requiredLiteral } from './required-literal.js'
import { walkFiles } from './walk.js'
import { searchLargeFile, type FileHits } from './search-large.js'
import { searchLargeMultiline, type Windows } from './search-multiline.js'
import { MatchedLines, pastLastLine } from './matched-lines.js'
import { describeError } from '../../core/errors.js'

/** Past `largeBytes` a file is never held whole: it is searched a chunk at a time, or for a multiline search in overlapping windows. */
export interface GrepSizes extends Windows {
  largeBytes: number
}

export const GREP_SIZES: GrepSizes = { largeBytes: 8 * 1024 * 1024, window: 8 * 1024 * 1024, overlap: 1024 * 1024 }
const LARGE = Symbol('large')

/**
 * Grep without ripgrep: the same file selection and the same output lines `rg --sort path`
 * prints, streamed file by file so a content search stops once it has enough lines.
 */
export async function searchWithJs(spec: SearchSpec, sizes: GrepSizes = GREP_SIZES): Promise<string[]> {
  let re: LinearPattern
  try {
    re = compilePattern(spec.pattern, { ignoreCase: spec.ignoreCase, multiline: spec.multiline })
  } catch (err) {
    throw new PatternError(describeError(err))
  }
  let types: readonly string[] | undefined
  if (spec.type !== undefined) {
    types = FILE_TYPES[spec.type]
    if (!types) throw new UnknownTypeError(`unknown file type "${spec.type}"; known types: ${Object.keys(FILE_TYPES).join(', ')}`)
  }
  const files = spec.rootIsFile ? single(spec.root) : walkFiles(spec.root, { globs: spec.globs, types }, spec.signal)
  // Case-insensitive matching folds more than toLowerCase does (ſ matches s): no literal then.
  const literal = re.ignoresCase ? undefined : requiredLiteral(re.source)
  const out: string[] = []
  // The walk yields to the event loop every few milliseconds; each file is read and searched in one go.
  for await (const path of files) {
    if (spec.signal.aborted || out.length >= spec.stopAfter) break
    if (spec.denied?.(path)) continue
    let hits = searchFile(path, re, spec, sizes.largeBytes, literal)
    if (hits === LARGE) hits = spec.multiline ? await searchLargeMultiline(path, re, spec, literal, sizes) : await searchLargeFile(path, re, spec, literal)
    if (hits) render(hits, spec, out)
  }
  if (out.length > spec.stopAfter) out.length = spec.stopAfter
  // A search through one huge file should not keep a buffer its size for the rest of the session.
  if (scratch.length > 1024 * 1024) scratch = Buffer.allocUnsafe(64 * 1024)
  return out
}

async function* single(path: string): AsyncGenerator<string> {
  yield path
}

function searchFile(path: string, re: LinearPattern, spec: SearchSpec, largeBytes: number, literal?: string): FileHits | typeof LARGE | undefined {
  const bytes = readBytes(path, largeBytes)
  if (bytes === LARGE) return LARGE
  // Like ripgrep, a NUL byte marks a binary file, which is not searched.
  if (!bytes || bytes.includes(0)) return undefined
  const { text } = decodeText(bytes)
  if (literal !== undefined) {
    // Every match holds the literal, so a text without it has no matching line.
    let at = text.indexOf(literal)
    if (at === -1) return undefined
    // For a list of files only the lines holding the literal need a test, and the first that
    // matches settles the file: found without splitting the text.
    if (spec.mode === 'files_with_matches' && !spec.multiline) {
      while (at !== -1) {
        const next = text.indexOf('\n', at)
        const end = next === -1 ? text.length : next
        if (re.test(text.slice(text.lastIndexOf('\n', at) + 1, end))) return { path, lines: [], matched: [0], count: 1 }
        at = next === -1 ? -1 : text.indexOf(literal, next + 1)
      }
      return undefined
    }
  }
  const lines = text.split('\n')
  if (lines.at(-1) === '') lines.pop()
  let matched: number[] = []
  let count = 0
  if (!spec.multiline) {
    for (let i = 0; i < lines.length; i++) {
      if (re.test(lines[i]!)) {
        matched.push(i)
        if (spec.mode === 'files_with_matches') break
      }
    }
    count = matched.length
  } else {
    const starts = lineStarts(text)
    const runs = new MatchedLines(true)
    for (const [from, to] of re.matches(text)) {
      if (pastLastLine(text, from)) break
      const first = lineAt(starts, from)
      runs.add(first, to > from ? lineAt(starts, to - 1) : first)
      if (spec.mode === 'files_with_matches') break
    }
    matched = runs.lines
    count = runs.count
  }
  return matched.length > 0 ? { path, lines, matched, count } : undefined
}

// One buffer for every file of a search, grown as needed: a file costs open, read and close (a
// short read is the end of a regular file), with no fstat (but for one that fills the buffer) and
// no buffer of its own to collect.
let scratch = Buffer.allocUnsafe(64 * 1024)

/** The file's bytes, in `scratch`: valid until the next call. LARGE once it holds more than `limit`. */
function readBytes(path: string, limit: number): Buffer | typeof LARGE | undefined {
  let fd: number
  try {
    fd = openSync(path, 'r')
  } catch {
    return undefined
  }
  try {
    let size = 0
    let sized = false
    for (;;) {
      // Found large before the buffer grows past the limit: the chunked search reads it again.
      if (size >= limit) return LARGE
      if (size === scratch.length) {
        // A file that fills the buffer is worth one fstat: one past the limit is left to the chunked
        // search at once, not read up to the limit here first (8 MiB took ~80 ms with the event loop blocked).
        if (!sized) {
          sized = true
          if (fstatSync(fd).size > limit) return LARGE
        }
        scratch = Buffer.concat([scratch, Buffer.allocUnsafe(scratch.length)])
      }
      const room = scratch.length - size
      const n = readSync(fd, scratch, size, room, null)
      size += n
      if (size > limit) return LARGE
      if (n < room) return scratch.subarray(0, size)
    }
  } catch {
    return undefined
  } finally {
    closeSync(fd)
  }
}

function lineStarts(text: string): number[] {
  const starts = [0]
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1)
  return starts
}

function lineAt(starts: readonly number[], offset: number): number {
  let lo = 0
  let hi = starts.length - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (starts[mid]! <= offset) lo = mid
    else hi = mid - 1
  }
  return lo
}

/** Appends one file's output lines in ripgrep's format. */
function render(hits: FileHits, spec: SearchSpec, out: string[]): void {
  const prefix = spec.rootIsFile ? '' : hits.path
  if (spec.mode === 'files_with_matches') return void out.push(hits.path)
  if (spec.mode === 'count') return void out.push(prefix ? `${prefix}:${hits.count}` : String(hits.count))
  const line = (i: number, sep: ':' | '-') => {
    const num = spec.lineNumbers ? `${i + 1}${sep}` : ''
    return `${prefix ? `${prefix}${sep}` : ''}${num}${hits.lines[i]}`
  }
  const withContext = spec.before > 0 || spec.after > 0
  if (!withContext) {
    for (const i of hits.matched) out.push(line(i, ':'))
    return
  }
  const isMatch = new Set(hits.matched)
  let end = -2
  for (const m of hits.matched) {
    const from = Math.max(0, m - spec.before, end + 1)
    const to = Math.min(hits.lines.length - 1, m + spec.after)
    // A gap from the previous group — or a new file after another's output — gets ripgrep's "--".
    if (from > end + 1 && out.length > 0) out.push('--')
    for (let i = from; i <= to; i++) out.push(line(i, isMatch.has(i) ? ':' : '-'))
    end = Math.max(end, to)
  }
}
