import { isUtf8 } from 'node:buffer'
import { closeSync, openSync, readSync } from 'node:fs'
import type { SearchSpec } from './grep-input.js'
import type { LinearPattern } from './js-regex.js'
import { LineCursor } from './line-cursor.js'
import { MatchedLines, pastLastLine } from './matched-lines.js'
import type { FileHits } from './search-large.js'

/** How a file too large to hold is searched with multiline on: windows of `window` bytes, each sharing `overlap` with the next. */
export interface Windows {
  window: number
  overlap: number
}

// The event loop gets a turn this often, so an interrupt is acted on while a large file is searched.
const YIELD_MS = 20
const RESTART = Symbol('restart')

/**
 * A multiline search of a file too large to hold, in windows that start at line starts and overlap
 * by `overlap` bytes: memory stays at a window plus the lines the output shows, however large the
 * file. The pattern runs on the window's UTF-8 bytes, so no string the window's size is made (and
 * none is left for the collector per window). Each window is searched from where the last accepted
 * match left off, with the line break before it kept so `^`, `\b` and `\A` see what they would in
 * the whole text. A match is taken from the window it starts in before the overlap; one starting in
 * the overlap is left to the next window, which holds it whole with the same text before it. So
 * every match up to `overlap` bytes long is found once, as the whole-file search finds it. A longer
 * one that crosses a window's end may be missed or cut there (a greedy `a.*b` stops at the
 * window's last `b`), and the search goes on after it.
 */
export async function searchLargeMultiline(path: string, re: LinearPattern, spec: SearchSpec, literal: string | undefined, sizes: Windows): Promise<FileHits | undefined> {
  let fd: number
  try {
    fd = openSync(path, 'r')
  } catch {
    return undefined
  }
  try {
    // Like the whole-file search, a file that is not UTF-8 is read a byte a character; that is
    // known only once a window fails the check, and the search then starts over.
    const hits = await scan(fd, path, re, spec, literal, sizes, 'utf8')
    return hits === RESTART ? ((await scan(fd, path, re, spec, literal, sizes, 'latin1')) as FileHits | undefined) : hits
  } finally {
    closeSync(fd)
  }
}

async function scan(fd: number, path: string, re: LinearPattern, spec: SearchSpec, literal: string | undefined, sizes: Windows, encoding: 'utf8' | 'latin1'): Promise<FileHits | undefined | typeof RESTART> {
  const content = spec.mode === 'content'
  const runs = new MatchedLines(content)
  const lines: string[] = []
  const head = Buffer.alloc(3)
  if (readAt(fd, head, 0, 3, 0) === undefined) return undefined
  // UTF-16 text holds NUL bytes (binary to Grep); a UTF-8 BOM is skipped and the rest decoded as UTF-8, as for a small file.
  if (head[0] === 0xff && head[1] === 0xfe) return undefined
  const bom = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf
  const textStart = bom ? 3 : 0
  const needle = literal === undefined ? undefined : Buffer.from(literal)
  let start = textStart // byte offset of the window's first line
  let firstLine = 0 // its line index
  let windowAt = 0 // its offset in the whole text as UTF-8
  let from = 0 // where the search goes on, in the whole text as UTF-8
  let filled = -1 // lines up to here hold their text (or were not wanted)
  let wantUpTo = -1 // the last line the output shows so far (after-context included)
  let before: string[] = [] // the text of the `spec.before` lines above the window
  // One buffer serves every window; a longer one, grown for a long line, serves only its window.
  const buf = Buffer.allocUnsafe(Math.max(sizes.window, sizes.overlap + 3))
  let lastYield = performance.now()
  const pause = async (): Promise<boolean> => {
    if (performance.now() - lastYield > YIELD_MS) {
      await new Promise((resolve) => setImmediate(resolve))
      lastYield = performance.now()
    }
    return spec.signal.aborted
  }
  const hits = (): FileHits | undefined => (runs.count > 0 ? { path, lines, matched: runs.lines, count: runs.count } : undefined)
  // Stopping early (a file list, or enough lines) leaves the rest unread, yet a NUL byte or a byte
  // that is not UTF-8 there changes what the whole-file search prints: the rest is checked for them.
  const stop = async (position: number) => {
    const rest = await checkRest(fd, position, encoding === 'utf8' && !bom, pause)
    return rest === 'clean' ? hits() : rest === 'not-utf8' ? RESTART : undefined
  }

  for (;;) {
    if (await pause()) return undefined
    // A later window starts with the line break before its first line.
    const lead = start > textStart ? 1 : 0
    const window = readWindow(fd, buf, start - lead, lead, sizes)
    if (!window) return undefined
    const { bytes, next, final } = window
    // Like ripgrep, a NUL byte marks a binary file, which is not searched.
    if (bytes.includes(0)) return undefined
    if (encoding === 'utf8' && !bom && !isUtf8(bytes)) return RESTART
    // What the pattern runs on: the bytes, when they are UTF-8 as the whole-file search reads them.
    // Otherwise the text that search decodes (a byte a character, or U+FFFD after a BOM) in UTF-8:
    // each part apart, so the hand-over stays at a line start.
    let text = bytes
    let nextAt = next
    if (encoding === 'latin1' || (bom && !isUtf8(bytes))) {
      const head = Buffer.from(bytes.toString(encoding, 0, next), 'utf8')
      text = final ? head : Buffer.concat([head, Buffer.from(bytes.toString(encoding, next), 'utf8')])
      nextAt = head.length
    }
    // Reading a window takes a few milliseconds: a turn for the event loop before the search.
    if (await pause()) return undefined
    const cursor = new LineCursor(text, lead, firstLine)
    const lineText = (i: number) => (i >= firstLine ? cursor.textOf(i) : before[i - firstLine + before.length] ?? '')
    const fill = (upTo: number) => {
      for (let i = filled + 1; i <= upTo; i++) lines[i] = lineText(i)
      filled = Math.max(filled, upTo)
    }
    let last: number | undefined
    const lastLine = () => (last ??= cursor.lastLine())
    if (content && wantUpTo > filled) fill(Math.min(wantUpTo, lastLine()))

    const at = Math.max(lead, from - windowAt + lead)
    if (at <= text.length && (needle === undefined || text.includes(needle, at))) {
      for (const [a, b] of re.matches(text, at)) {
        // One starting in the overlap is left to the next window, which has room for it after it.
        if (!final && a >= nextAt) break
        if (final && pastLastLine(text, a, lead)) break
        const first = cursor.lineOf(a)
        const end = b > a ? cursor.lineOf(b - 1) : first
        const known = runs.lines.length
        runs.add(first, end)
        // After an empty match the search goes on a character later, as the matcher itself does.
        from = windowAt + (b > a ? b : b + charBytes(text[b])) - lead
        if (spec.mode === 'files_with_matches') return stop(start - lead + bytes.length)
        if (content && runs.lines.length > known) {
          filled = Math.max(filled, runs.lines[known]! - spec.before - 1)
          wantUpTo = Math.max(wantUpTo, runs.lines.at(-1)! + spec.after)
          fill(Math.min(wantUpTo, lastLine()))
          if (runs.lines.length >= spec.stopAfter) return stop(start - lead + bytes.length)
        }
        if (await pause()) return undefined
      }
    }
    if (final) return hits()

    const nextLine = cursor.lineOf(nextAt)
    if (content && spec.before > 0) {
      const kept: string[] = []
      for (let i = Math.max(0, nextLine - spec.before); i < nextLine; i++) kept.push(lineText(i))
      before = kept
    }
    windowAt += nextAt - lead
    firstLine = nextLine
    start += next - lead
  }
}

/** The length of the UTF-8 sequence a byte starts (1 past the end). */
function charBytes(lead: number | undefined): number {
  return lead === undefined || lead < 0xc0 ? 1 : lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : 4
}

/**
 * The bytes from `position`: at least `sizes.window` of them, cut after a line break, with a line
 * start (`next`, where the next window begins) at least `overlap` bytes before the cut and after
 * `lead`. A line too long for that makes the window grow, as the line must be shown whole. Cut at
 * line breaks, a window never splits a UTF-8 sequence.
 */
function readWindow(fd: number, buf: Buffer, position: number, lead: number, sizes: Windows): { bytes: Buffer; next: number; final: boolean } | undefined {
  let size = 0
  for (;;) {
    while (size < buf.length) {
      const n = readAt(fd, buf, size, buf.length - size, position + size)
      if (n === undefined) return undefined
      if (n === 0) return { bytes: buf.subarray(0, size), next: size, final: true }
      size += n
    }
    const cut = buf.lastIndexOf(10) + 1
    const next = cut - sizes.overlap - 1 >= lead ? buf.lastIndexOf(10, cut - sizes.overlap - 1) + 1 : 0
    if (next > lead) return { bytes: buf.subarray(0, cut), next, final: false }
    const grown = Buffer.allocUnsafe(buf.length * 2)
    buf.copy(grown)
    buf = grown
  }
}

/**
 * Whether the file from `position` on holds a NUL byte ('binary') or, when `utf8` is asked, a byte
 * sequence that is not UTF-8 ('not-utf8'). Read a MiB at a time; `pause` yields and tells of an
 * interrupt, and the rest is then 'unread' (so is a file that cannot be read).
 */
async function checkRest(fd: number, position: number, utf8: boolean, pause: () => Promise<boolean>): Promise<'clean' | 'binary' | 'not-utf8' | 'unread'> {
  const buf = Buffer.allocUnsafe(1024 * 1024)
  let carry = 0
  for (;;) {
    if (await pause()) return 'unread'
    const n = readAt(fd, buf, carry, buf.length - carry, position)
    if (n === undefined) return 'unread'
    position += n
    const size = carry + n
    if (buf.subarray(carry, size).includes(0)) return 'binary'
    // A sequence cut at the chunk's end is checked with the next chunk: the chunk is checked up to
    // the last byte that starts one (a sequence is at most 4 bytes).
    let cut = size
    if (n > 0) for (let k = 1; k <= Math.min(4, size); k++) if ((buf[size - k]! & 0xc0) !== 0x80) { cut = size - k; break }
    if (utf8 && !isUtf8(buf.subarray(0, cut))) return 'not-utf8'
    if (n === 0) return 'clean'
    buf.copy(buf, 0, cut, size)
    carry = size - cut
  }
}

/** Bytes read at `position`, or undefined when the file cannot be read (it is then skipped, as an unreadable small file is). */
function readAt(fd: number, buf: Buffer, offset: number, length: number, position: number): number | undefined {
  try {
    return readSync(fd, buf, offset, length, position)
  } catch {
    return undefined
  }
}
