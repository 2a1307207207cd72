import { describe, expect, it } from 'vitest'
import { lineWindow, numberLines, splitLines, type WindowOptions } from '../../mods/_shared/numbered-lines.js'

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

/** The reference window: split, take the range, cut long lines, keep to the budget, number. */
function referenceWindow(text: string, o: WindowOptions) {
  const lines = splitLines(text)
  const wanted = lines.slice(o.start, o.start + o.limit).map((l) => (l.length > o.maxLineChars ? l.slice(0, o.maxLineChars) + o.cutNote : l))
  let used = 0
  let shown = wanted.length
  for (let i = 0; i < wanted.length; i++) {
    used += wanted[i]!.length + String(o.start + i + 1).length + 8
    if (used > o.budget && shown === wanted.length) shown = Math.max(1, i)
  }
  const selected = wanted.slice(0, shown)
  return { numbered: numberLines(selected, o.start + 1), content: selected.join('\n'), shown: selected.length, total: lines.length, chars: used }
}

describe('lineWindow', () => {
  it('shows what split, slice, cut and budget would, and measures the whole window, on random texts', () => {
    let seed = 11
    const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n
    for (let n = 0; n < 3_000; n++) {
      const text = Array.from({ length: next(30) }, () => ['a', 'bb', '\r', '\n', '\n', 'cccccc'][next(6)]).join('')
      const o: WindowOptions = { start: next(6), limit: 1 + next(8), maxLineChars: 1 + next(8), cutNote: '…', budget: next(80) }
      const got = lineWindow(text, o)
      expect({ numbered: got.numbered, content: got.content, shown: got.shown, total: got.total, chars: got.chars }, JSON.stringify({ text, o })).toEqual(referenceWindow(text, o))
    }
  })

  it('hands back a slice of the text itself when nothing was cut', () => {
    const text = Array.from({ length: 3_000 }, (_, i) => `line ${i}`).join('\n')
    const view = lineWindow(text, { start: 10, limit: 2_000, maxLineChars: 2_000, cutNote: '', budget: Infinity })
    expect(view.content).toBe(text.split('\n').slice(10, 2_010).join('\n'))
    expect(view.numbered.split('\n')[0]).toBe('    11\tline 10')
    expect([view.shown, view.total, view.cut]).toEqual([2_000, 3_000, false])
  })

  it('numbers past six digits by pushing the tab', () => {
    expect(numberLines(['x', 'y'], 999_999)).toBe('999999\tx\n1000000\ty')
  })
})
