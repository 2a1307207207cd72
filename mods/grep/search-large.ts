import { closeSync, openSync, readSync } from 'node:fs'
import { StringDecoder } from 'node:string_decoder'
import type { SearchSpec } from './grep-input.js'
import type { LinearPattern } from './js-regex.js'

/** One file's matches; `lines` may be sparse (a large file keeps only the lines its output shows). */
export interface FileHits {
  path: string
  lines: string[]
  /** Indices of matched lines, ascending. */
  matched: number[]
  /** ripgrep's count: matching lines, or in multiline mode runs of lines a match spans. */
  count: number
}

// Small enough that its strings are made in V8's young space, which is swept cheaply and often: a chunk of 1 MiB
// made large-object strings that only full collections free, and peak memory rose with the file.
const CHUNK = 64 * 1024
// The event loop gets a turn this often, so an interrupt is acted on while a large file is read.
const YIELD_MS = 20

/**
 * Searches a file too large to hold, a chunk at a time: memory stays at a chunk plus the lines the
 * output shows (context included), however large the file. Line by line only (a multiline search
 * goes window by window: search-multiline.ts); a NUL byte anywhere marks it binary, as ripgrep has it.
 */
export async function searchLargeFile(path: string, re: LinearPattern, spec: SearchSpec, literal?: string): Promise<FileHits | undefined> {
  let fd: number
  try {
    fd = openSync(path, 'r')
  } catch {
    return undefined
  }
  const buf = Buffer.allocUnsafe(CHUNK)
  const decoder = new StringDecoder('utf8')
  const lines: string[] = []
  const matched: number[] = []
  let carry = ''
  let index = 0
  let afterLeft = 0
  let lastYield = performance.now()
  const keep = (i: number, line: string) => { lines[i] = line }
  const onLine = (line: string): boolean => {
    const i = index++
    if (re.test(line)) {
      matched.push(i)
      keep(i, line)
      for (let b = Math.max(0, i - spec.before); b < i; b++) if (lines[b] === undefined) lines[b] = recent[b - (i - recent.length)] ?? ''
      afterLeft = spec.after
      if (spec.mode === 'files_with_matches') return false
      if (spec.mode === 'content' && matched.length >= spec.stopAfter) return false
    } else if (afterLeft > 0) {
      afterLeft--
      keep(i, line)
    }
    if (spec.before > 0) {
      recent.push(line)
      if (recent.length > spec.before) recent.shift()
    }
    return true
  }
  const recent: string[] = []
  try {
    for (;;) {
      if (spec.signal.aborted) return undefined
      const n = readSync(fd, buf, 0, CHUNK, null)
      if (n === 0) break
      const bytes = buf.subarray(0, n)
      if (bytes.includes(0)) return undefined
      const text = carry + decoder.write(bytes)
      const last = text.lastIndexOf('\n')
      carry = last === -1 ? text : text.slice(last + 1)
      const whole = last === -1 ? '' : text.slice(0, last)
      if (whole !== '' || last !== -1) {
        // Without the literal no line of the chunk matches: only the count and the context move on.
        if (literal !== undefined && !whole.includes(literal) && afterLeft === 0 && spec.before === 0) index += countLines(whole)
        else if (!whole.split('\n').every(onLine)) return done()
      }
      if (performance.now() - lastYield > YIELD_MS) {
        await new Promise((resolve) => setImmediate(resolve))
        lastYield = performance.now()
      }
    }
    carry += decoder.end()
    if (carry !== '') onLine(carry)
    return done()
  } catch {
    return undefined
  } finally {
    closeSync(fd)
  }

  function done(): FileHits | undefined {
    if (matched.length === 0) return undefined
    lines.length = Math.max(lines.length, index)
    return { path, lines, matched, count: matched.length }
  }
}

function countLines(text: string): number {
  let n = 1
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++
  return n
}
