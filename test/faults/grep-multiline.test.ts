import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { specOf } from '../../mods/grep/grep-input.js'
import { GREP_SIZES, searchWithJs, type GrepSizes } from '../../mods/grep/js-engine.js'

// Small windows keep the files small: past 4 KiB a file is searched 4 KiB at a time, each window
// handing over to the next 512 bytes before its end. Lines are 32 bytes, so the first window holds
// lines 1–128 and hands over at line 113.
const WINDOWS: GrepSizes = { largeBytes: 4096, window: 4096, overlap: 512 }
const WHOLE: GrepSizes = { ...GREP_SIZES, largeBytes: Infinity }

let dir: string
let edges: string
const row = (i: number, text = `row ${i + 1}`) => text.padEnd(31, '.').slice(0, 31)
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'modloop-grep-multiline-'))
  edges = join(dir, 'edges.txt')
  const lines = Array.from({ length: 400 }, (_, i) => row(i))
  // "open" ending a line and "close" starting the next: one match mid-window, one across the
  // hand-over (lines 112–113), one within the overlap (116–117), one across the window's end (128–129).
  for (const at of [50, 111, 115, 127]) {
    lines[at] = row(at, `row ${at + 1} `.padEnd(27, '.') + 'open')
    lines[at + 1] = row(at + 1, `close row ${at + 2}`)
  }
  // A match longer than the overlap: from line 11 to line 201.
  lines[10] = row(10, 'BEGIN row 11')
  lines[200] = row(200, 'FINISH row 201')
  await writeFile(edges, lines.map((l) => `${l}\n`).join(''))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

const search = (path: string, input: Record<string, unknown>, sizes: GrepSizes, signal = new AbortController().signal) =>
  searchWithJs(specOf({ output_mode: 'content', multiline: true, ...input } as never, path, true, signal), sizes)

describe('Grep fallback: a multiline search of a file too large to hold', () => {
  it('finds each match once, across the hand-over, in the overlap and across a window end, as the whole-file search does', async () => {
    const content = await search(edges, { pattern: 'open\\nclose' }, WINDOWS)
    const open = (n: number) => `${n}:${row(n - 1, `row ${n} `.padEnd(27, '.') + 'open')}`
    const close = (n: number) => `${n}:${row(n - 1, `close row ${n}`)}`
    expect(content).toEqual([open(51), close(52), open(112), close(113), open(116), close(117), open(128), close(129)])
    expect(content).toEqual(await search(edges, { pattern: 'open\\nclose' }, WHOLE))
    // The next window goes on after the match that crossed the hand-over: its "close" is taken, so
    // the second branch finds nothing there (a window searched from its start would add line 114).
    expect(await search(edges, { pattern: 'open\\nclose|close[^\\n]*\\nrow' }, WINDOWS)).toEqual(content)
    for (const input of [{ '-C': 2 }, { '-B': 3, '-n': false }, { output_mode: 'count' }, { output_mode: 'files_with_matches' }, { head_limit: 3 }]) {
      const windowed = await search(edges, { pattern: 'open\\nclose', ...input }, WINDOWS)
      expect(windowed, JSON.stringify(input)).toEqual(await search(edges, { pattern: 'open\\nclose', ...input }, WHOLE))
    }
    expect(await search(edges, { pattern: 'open\\nclose', output_mode: 'count' }, WINDOWS)).toEqual(['4'])
  })

  it('misses a match longer than the overlap that crosses a window edge (the documented limit)', async () => {
    expect(await search(edges, { pattern: 'BEGIN.*FINISH', output_mode: 'count' }, WHOLE)).toEqual(['1'])
    expect(await search(edges, { pattern: 'BEGIN.*FINISH', output_mode: 'count' }, WINDOWS)).toEqual([])
    // One within a window is found whole.
    expect(await search(edges, { pattern: 'BEGIN.*row 20\\.', '-n': true }, WINDOWS)).toEqual(
      Array.from({ length: 10 }, (_, i) => `${i + 11}:${i === 0 ? row(10, 'BEGIN row 11') : row(i + 10)}`))
  })

  it('prints what the whole-file search prints, on varied text: multibyte characters, CRLF, empty lines, a BOM, bytes that are not UTF-8, a NUL', async () => {
    // Windows of 384 bytes overlapping by 160; every pattern's matches are shorter than that.
    const small: GrepSizes = { largeBytes: 512, window: 384, overlap: 160 }
    let seed = 7
    const pick = <T>(xs: readonly T[]) => xs[(seed = (seed * 1103515245 + 12345) & 0x7fffffff) % xs.length]!
    const words = ['foo', 'bar', 'é', '😀', '', 'a', 'b', ' ', 'x\r', 'end']
    const files: string[] = []
    for (const kind of ['utf8', 'bom', 'latin1', 'nul']) {
      const text = Array.from({ length: 300 }, () => Array.from({ length: 4 }, () => pick(words)).join('')).join('\n')
      let bytes = Buffer.from(text)
      if (kind === 'bom') bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes])
      // Late in the file: the first windows are valid UTF-8 (so the search starts over byte by byte), or text.
      if (kind === 'latin1') bytes[bytes.length - 20] = 0xe9
      if (kind === 'nul') bytes[bytes.length - 20] = 0
      const path = join(dir, `${kind}.txt`)
      await writeFile(path, bytes)
      files.push(path)
    }
    // Anchors and \b at window starts, empty matches, text that ends a window, characters of 2 and 4 bytes.
    const patterns = ['foo\\nbar', '^$', '$', '\\z', '\\A.', 'é\\n😀', 'x?', '\\bba', 'a[^\\n]*\\n[^\\n]*b', 'ba(.|\\n){1,12}a', '\\xe9\\n']
    const inputs = [{ '-n': true }, { '-C': 2 }, { output_mode: 'count' }, { output_mode: 'files_with_matches' }, { head_limit: 5 }]
    let found = 0
    for (const path of files) {
      for (const pattern of patterns) {
        for (const input of inputs) {
          const whole = await search(path, { pattern, ...input }, WHOLE)
          expect(await search(path, { pattern, ...input }, small), `${path} ${pattern} ${JSON.stringify(input)}`).toEqual(whole)
          found += whole.length
        }
      }
    }
    expect(found).toBeGreaterThan(1000)
  })

  it('stops when interrupted', async () => {
    const abort = new AbortController()
    abort.abort()
    expect(await search(edges, { pattern: 'open\\nclose', output_mode: 'count' }, WINDOWS, abort.signal)).toEqual([])
  })
})
