import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { specOf } from '../../mods/grep/grep-input.js'
import { GREP_SIZES, searchWithJs } from '../../mods/grep/js-engine.js'

let dir: string
let big: string
const LINES = 400_000
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'modloop-grep-large-'))
  big = join(dir, 'big.txt')
  // ~18 MB: past the 8 MiB the fallback holds whole, so it is read a chunk at a time.
  const body = Array.from({ length: LINES }, (_, i) => (i === 123_456 || i === LINES - 1 ? `line ${i} the needle is here` : `line ${i} filler text for the haystack`)).join('\n')
  await writeFile(big, body)
})
afterAll(() => rm(dir, { recursive: true, force: true }))

const search = (input: Record<string, unknown>, signal = new AbortController().signal, sizes = GREP_SIZES) =>
  searchWithJs(specOf({ pattern: 'needle', output_mode: 'content', ...input } as never, big, true, signal), sizes)
// The whole-file search, as for a small file: the reference a large file's search must equal.
const WHOLE = { ...GREP_SIZES, largeBytes: Infinity }

describe('Grep fallback on a file too large to hold', () => {
  it('finds matches with their line numbers and context, across chunk borders, to the last line without a newline', async () => {
    expect(await search({ '-n': true, '-C': 1 })).toEqual([
      '123456-line 123455 filler text for the haystack', '123457:line 123456 the needle is here', '123458-line 123457 filler text for the haystack',
      '--',
      `${LINES - 1}-line ${LINES - 2} filler text for the haystack`, `${LINES}:line ${LINES - 1} the needle is here`,
    ])
    expect(await search({ output_mode: 'count' })).toEqual(['2'])
    expect(await search({ output_mode: 'files_with_matches' })).toEqual([big])
  })

  it('searches multiline in overlapping windows, printing what the whole-file search prints', async () => {
    // 18 MB in 8 MiB windows: three windows, each handing over to the next at a line end.
    const content = { pattern: 'needle is here\\nline \\d+ filler', '-n': true, '-C': 1, multiline: true }
    const windowed = await search(content)
    expect(windowed).toEqual(await search(content, undefined, WHOLE))
    expect(windowed).toEqual([
      '123456-line 123455 filler text for the haystack', '123457:line 123456 the needle is here', '123458:line 123457 filler text for the haystack', '123459-line 123458 filler text for the haystack',
    ])
    expect(await search({ ...content, output_mode: 'files_with_matches' })).toEqual([big])
    // Each line numbered …9 (but the last) with the next: 39,999 matches of two lines, none adjoining,
    // on both sides of every window edge. (Exact edges: grep-multiline.test.ts, with small windows.)
    expect(await search({ pattern: '9 filler text for the haystack\\nline \\d+0 ', output_mode: 'count', multiline: true })).toEqual([String(LINES / 10 - 1)])
  })

  it('stops when interrupted', async () => {
    const abort = new AbortController()
    abort.abort()
    expect(await search({ output_mode: 'count' }, abort.signal)).toEqual([])
    expect(await search({ output_mode: 'count', multiline: true }, abort.signal)).toEqual([])
  })
})
