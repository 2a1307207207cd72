/**
 * Line numbers and line texts in a window of a large file, from a cursor that moves from where it
 * last was: matches come in order and context lies next to them, so a window is walked about once.
 */
export class LineCursor {
  private line: number
  private start: number

  /** `text` from `textStart` on begins with line `firstLine`. */
  constructor(private readonly text: string, private readonly textStart: number, firstLine: number) {
    this.line = firstLine
    this.start = textStart
  }

  /** The line holding `offset` (a line break belongs to the line it ends). */
  lineOf(offset: number): number {
    const { text } = this
    for (let nl = text.indexOf('\n', this.start); nl !== -1 && nl < offset; nl = text.indexOf('\n', this.start)) {
      this.start = nl + 1
      this.line++
    }
    while (this.start > offset && this.start > this.textStart) this.back()
    return this.line
  }

  /** The text of line `index`, without its line break. */
  textOf(index: number): string {
    const { text } = this
    while (this.line < index) {
      const nl = text.indexOf('\n', this.start)
      if (nl === -1) return ''
      this.start = nl + 1
      this.line++
    }
    while (this.line > index && this.start > this.textStart) this.back()
    const end = text.indexOf('\n', this.start)
    return text.slice(this.start, end === -1 ? text.length : end)
  }

  /** The index of the window's last line. */
  lastLine(): number {
    const { text } = this
    let line = this.line
    for (let nl = text.indexOf('\n', this.start); nl !== -1 && nl < text.length - 1; nl = text.indexOf('\n', nl + 1)) line++
    return line
  }

  private back(): void {
    this.start = this.start - 2 < this.textStart ? this.textStart : this.text.lastIndexOf('\n', this.start - 2) + 1
    this.line--
  }
}

/**
 * A copy of a line cut from a window: V8 makes a slice of a long string a view that keeps the whole
 * string alive, and a line kept for the output must not keep its 8 MiB window.
 */
export function detach(line: string): string {
  return (' ' + line).slice(1)
}
