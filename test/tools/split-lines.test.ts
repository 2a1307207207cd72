import { describe, expect, it } from 'vitest'
import { splitLines } from '../../mods/_shared/numbered-lines.js'

/** The reference: split at LF or CRLF, no extra line after a final break. */
function reference(text: string): string[] {
  if (text === '') return []
  const lines = text.split(/\r?\n/)
  if (lines.at(-1) === '') lines.pop()
  return lines
}

describe('splitLines', () => {
  it.each([
    '', 'a', 'a\n', 'a\nb', 'a\r\nb\r\n', 'a\rb', 'a\r', '\r', '\r\n', '\n\n', 'a\r\r\nb', 'mixed\nends\r\nhere\r', '\r\n\r\n\n',
  ])('splits %j like /\\r?\\n/ does', (text) => {
    expect(splitLines(text)).toEqual(reference(text))
  })

  it('agrees with /\\r?\\n/ on random texts of a, CR and LF', () => {
    let seed = 7
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % 3
    for (let n = 0; n < 2_000; n++) {
      const text = Array.from({ length: n % 12 }, () => ['a', '\r', '\n'][next()]).join('')
      expect(splitLines(text), JSON.stringify(text)).toEqual(reference(text))
    }
  })
})
