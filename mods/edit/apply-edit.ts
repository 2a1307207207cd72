import { lineEndingOf } from '../_shared/text-file.js'
import { inFileQuoteStyle, quoteBlindIndexes } from './quote-match.js'

export type EditOutcome = { ok: true; text: string; count: number } | { ok: false; reason: 'missing' | 'ambiguous'; count: number }

function occurrences(text: string, needle: string): number {
  let count = 0
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) count++
  return count
}

/** How often `needle` occurs in `text`, or 0 unless each occurrence starts a line. */
function wholeLines(text: string, needle: string): number {
  let count = 0
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) {
    if (i > 0 && text[i - 1] !== '\n') return 0
    count++
  }
  return count
}

/**
 * Replaces `oldString` with `newString` in `text`: exactly one occurrence, or every one with
 * `replaceAll`. The model sees lines without their CR, so in a CRLF file both strings are first
 * given the file's line endings; the strings as sent are tried only when that finds nothing.
 * Last, quotes are compared straightened (quote-match.ts).
 */
export function applyEdit(text: string, oldString: string, newString: string, replaceAll: boolean): EditOutcome {
  const eol = lineEndingOf(text)
  const adapt = (s: string) => (eol === '\r\n' ? s.replace(/\r?\n/g, '\r\n') : s.replace(/\r\n/g, '\n'))
  let find = adapt(oldString)
  let put = adapt(newString)
  let count = occurrences(text, find)
  if (count === 0 && find !== oldString) {
    count = occurrences(text, oldString)
    find = oldString
    put = newString
  }
  if (count === 0) return quoteBlindEdit(text, adapt(oldString), adapt(newString), replaceAll)
  // Deleting the whole text of lines deletes the lines, not leaving them blank (as Claude Code does;
  // it also takes the break after a line's tail, joining two lines, which we do not).
  if (put === '' && !find.endsWith('\n') && wholeLines(text, find + eol) === count) find += eol
  if (count > 1 && !replaceAll) return { ok: false, reason: 'ambiguous', count }
  if (replaceAll) return { ok: true, text: text.split(find).join(put), count }
  const at = text.indexOf(find)
  return { ok: true, text: text.slice(0, at) + put + text.slice(at + find.length), count }
}

function quoteBlindEdit(text: string, find: string, put: string, replaceAll: boolean): EditOutcome {
  const at = quoteBlindIndexes(text, find)
  if (at.length === 0) return { ok: false, reason: 'missing', count: 0 }
  if (at.length > 1 && !replaceAll) return { ok: false, reason: 'ambiguous', count: at.length }
  const styled = inFileQuoteStyle(text.slice(at[0]!, at[0]! + find.length), put)
  let out = text
  for (const i of at.reverse()) out = out.slice(0, i) + styled + out.slice(i + find.length)
  return { ok: true, text: out, count: at.length }
}
