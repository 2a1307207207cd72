/**
 * Line numbers and line texts in a window of a large file (UTF-8 bytes), from a cursor that moves
 * from where it last was: matches come in order and context lies next to them, so a window is
 * walked about once.
 */
export class LineCursor {
  private line: number
  private start: number

  /** `bytes` from `textStart` on begin with line `firstLine`. */
  constructor(private readonly bytes: Buffer, private readonly textStart: number, firstLine: number) {
    this.line = firstLine
    this.start = textStart
  }

  /** The line holding byte `offset` (a line break belongs to the line it ends). */
  lineOf(offset: number): number {
    const { bytes } = this
    for (let nl = bytes.indexOf(10, this.start); nl !== -1 && nl < offset; nl = bytes.indexOf(10, this.start)) {
      this.start = nl + 1
      this.line++
    }
    while (this.start > offset && this.start > this.textStart) this.back()
    return this.line
  }

  /** The text of line `index`, without its line break: a string of its own, holding no part of the window. */
  textOf(index: number): string {
    const { bytes } = this
    while (this.line < index) {
      const nl = bytes.indexOf(10, this.start)
      if (nl === -1) return ''
      this.start = nl + 1
      this.line++
    }
    while (this.line > index && this.start > this.textStart) this.back()
    const end = bytes.indexOf(10, this.start)
    return bytes.toString('utf8', this.start, end === -1 ? bytes.length : end)
  }

  /** The index of the window's last line. */
  lastLine(): number {
    const { bytes } = this
    let line = this.line
    for (let nl = bytes.indexOf(10, this.start); nl !== -1 && nl < bytes.length - 1; nl = bytes.indexOf(10, nl + 1)) line++
    return line
  }

  private back(): void {
    // Never a negative offset: Buffer.lastIndexOf counts those from the end.
    this.start = this.start - 2 < this.textStart ? this.textStart : this.bytes.lastIndexOf(10, this.start - 2) + 1
    this.line--
  }
}
