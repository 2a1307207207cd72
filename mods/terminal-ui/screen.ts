import cliTruncate from 'cli-truncate'

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
    return `${this.cursorRow > 0 ? `\u001b[${this.cursorRow}A` : ''}\r\u001b[J`
  }

  private draw(): string {
    if (this.live.length === 0) return '\u001b[?25h'
    const width = this.columns - 1
    const lines = this.live.map((l) => cliTruncate(l, width))
    let text = `\u001b[?25l${lines.join('\n')}`
    const last = lines.length - 1
    if (this.cursor) {
      const up = last - this.cursor.row
      text += `${up > 0 ? `\u001b[${up}A` : ''}\r${this.cursor.col > 0 ? `\u001b[${this.cursor.col}C` : ''}\u001b[?25h`
      this.cursorRow = this.cursor.row
    } else {
      this.cursorRow = last
    }
    this.drawn = true
    return text
  }
}
