// Models often type curly quotes where the file has straight ones, or the reverse. Claude Code's
// Edit matches such an old_string anyway and keeps the file's quote style in new_string; so do we.
// Each quote is one UTF-16 unit either way, so positions in the straightened text are the file's.

/** The text with its curly quotes made straight. */
export const straightQuotes = (s: string): string => s.replace(/[\u2018\u2019]/g, "'").replace(/[\u201C\u201D]/g, '"')

/** Where `needle` occurs in `text` once quotes are straightened on both sides, without overlaps. */
export function quoteBlindIndexes(text: string, needle: string): number[] {
  const hay = straightQuotes(text)
  const find = straightQuotes(needle)
  const at: number[] = []
  for (let i = hay.indexOf(find); i !== -1; i = hay.indexOf(find, i + find.length)) at.push(i)
  return at
}

// A quote opens after the start, a space or an opening bracket; anywhere else (an apostrophe
// inside a word included) it closes.
const opens = (before: string | undefined) => before === undefined || /[\s([{\u2018\u201C]/.test(before)

/** `newString` with straight quotes curled where the file's matched text used curly ones. */
export function inFileQuoteStyle(matched: string, newString: string): string {
  const single = /[\u2018\u2019]/.test(matched)
  const double = /[\u201C\u201D]/.test(matched)
  if (!single && !double) return newString
  let out = ''
  for (let i = 0; i < newString.length; i++) {
    const c = newString[i]!
    if (c === "'" && single) out += opens(newString[i - 1]) ? '\u2018' : '\u2019'
    else if (c === '"' && double) out += opens(newString[i - 1]) ? '\u201C' : '\u201D'
    else out += c
  }
  return out
}
