import cliTruncate from 'cli-truncate'
import stringWidth from 'string-width'

export interface Output {
  write(text: string): unknown
  columns?: number
  rows?: number
}

/**
 * The terminal as two parts: a scrollback that only grows (finished output is printed once and
 * left to the terminal) and a live region at the bottom (spinners, the status line, the prompt)
 * that is erased and redrawn in place. Every live line is cut to the width, so the region's
 * height is its line count and a redraw never leaves stale rows behind.
 */
export class Screen {
  private live: string[] = []
  private cursor: { row: number; col: number } | undefined
  /** Rows between the live region's top and where the cursor was left. */
  private cursorRow = 0
  /** Where the cursor was left in its row, and the width of each row drawn, at the width drawn for. */
  private cursorCol = 0
  private drawnWidths: number[] = []
  private drawnColumns = 0
  private drawn = false

  constructor(private readonly out: Output) {}

  get columns(): number {
    return Math.max(20, this.out.columns ?? 80)
  }

  /** Prints finished output above the live region. */
  print(text: string): void {
    const body = text.endsWith('\n') ? text : `${text}\n`
    this.out.write(`${this.erase()}${body}${this.draw()}`)
  }

  /** Replaces the live region; `cursor` places the terminal cursor (the prompt's caret). */
  setLive(lines: string[], cursor?: { row: number; col: number }): void {
    this.live = lines
    this.cursor = cursor
    this.out.write(`${this.erase()}${this.draw()}`)
  }

  /** Leaves the live region drawn as it is and moves below it, for a clean exit. */
  release(): void {
    this.out.write(`${this.erase()}${this.live.map((l) => `${l}\n`).join('')}\u001b[?25h`)
    this.live = []
    this.drawn = false
  }

  private erase(): string {
    if (!this.drawn) return ''
    this.drawn = false
    const up = this.rowsAboveCursor()
    return `${up > 0 ? `\u001b[${up}A` : ''}\r\u001b[J`
  }

  /**
   * How far up the live region's top is from the cursor. A terminal narrowed since the region was
   * drawn has rewrapped its rows (tmux, VTE, iTerm2, kitty … reflow on resize): a row wider than
   * the terminal now takes several, and counting one each would leave the top rows behind.
   */
  private rowsAboveCursor(): number {
    const columns = this.out.columns ?? 0
    if (columns <= 0 || columns >= this.drawnColumns) return this.cursorRow
    const rowsOf = (w: number) => Math.max(1, Math.ceil(w / columns))
    return this.drawnWidths.slice(0, this.cursorRow).reduce((n, w) => n + rowsOf(w), 0) + Math.floor(this.cursorCol / columns)
  }

  private draw(): string {
    if (this.live.length === 0) return '\u001b[?25h'
    const width = this.columns - 1
    const { lines, cursor } = this.window(this.live.map((l) => cliTruncate(l, width)))
    let text = `\u001b[?25l${lines.join('\n')}`
    const last = lines.length - 1
    if (cursor) {
      const up = last - cursor.row
      text += `${up > 0 ? `\u001b[${up}A` : ''}\r${cursor.col > 0 ? `\u001b[${cursor.col}C` : ''}\u001b[?25h`
      this.cursorRow = cursor.row
      this.cursorCol = cursor.col
    } else {
      this.cursorRow = last
      this.cursorCol = stringWidth(lines[last]!)
    }
    this.drawnWidths = lines.map((l) => stringWidth(l))
    this.drawnColumns = this.out.columns ?? 0
    this.drawn = true
    return text
  }

  /**
   * The rows of the live region that fit the terminal. Rows scrolled off the top could not be
   * erased by the next redraw and would pile up in the scrollback (a long paste in the prompt did
   * this at every key), so a taller region shows the window around the cursor, keeping the rows
   * below it (the prompt's rule, the status line) when they fit.
   */
  private window(lines: string[]): { lines: string[]; cursor?: { row: number; col: number } } {
    const rows = this.out.rows ?? 0
    if (rows < 2 || lines.length <= rows) return { lines, cursor: this.cursor }
    const at = this.cursor?.row ?? lines.length - 1
    const start = Math.max(0, Math.min(lines.length - rows, at))
    return { lines: lines.slice(start, start + rows), cursor: this.cursor && { row: this.cursor.row - start, col: this.cursor.col } }
  }
}
