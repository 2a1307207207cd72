/**
 * The lines a multiline search shows, and ripgrep's count for it: every line a match spans is shown
 * once, and a match that starts on a line an earlier match reached joins that match's count.
 * Shared by the whole-file and the windowed search so both print the same.
 */
export class MatchedLines {
  /** Matched line indices, ascending; kept only when asked (a count or a file list needs none). */
  readonly lines: number[] = []
  count = 0
  private last = -1

  constructor(private readonly keep: boolean) {}

  /** A match spanning lines `first` to `end` (0-based, inclusive). */
  add(first: number, end: number): void {
    if (first > this.last) this.count++
    if (this.keep) for (let i = Math.max(first, this.last + 1); i <= end; i++) this.lines.push(i)
    this.last = Math.max(this.last, end)
  }
}

/**
 * Whether a match at `offset` lies past the last line: at the very end of a text ending with a
 * line break, where only an empty match can be. ripgrep reports no such line (it would be numbered
 * one past the last), and stops there.
 */
export function pastLastLine(text: string | Uint8Array, offset: number, textStart = 0): boolean {
  if (offset !== text.length) return false
  return offset === textStart || (typeof text === 'string' ? text.charCodeAt(offset - 1) : text[offset - 1]) === 10
}
