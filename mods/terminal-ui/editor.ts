import stringWidth from 'string-width'

/**
 * The prompt's text and caret. Pure state, no terminal: keys call these methods and `view`
 * lays the text out in rows of the given width. Multi-line text holds `\n`.
 */
export class Editor {
  text = ''
  caret = 0
  private history: string[] = []
  /** Where up/down stands in the history; history.length is the text being written. */
  private at = 0
  private draft = ''

  setHistory(entries: readonly string[]): void {
    this.history = [...entries]
    this.at = this.history.length
  }

  /** Whether up/down is showing a history entry rather than the text being written. */
  get browsing(): boolean {
    return this.at < this.history.length
  }

  remember(entry: string): void {
    if (entry.trim() && this.history.at(-1) !== entry) this.history.push(entry)
    this.at = this.history.length
  }

  insert(text: string): void {
    this.text = this.text.slice(0, this.caret) + text + this.text.slice(this.caret)
    this.caret += text.length
  }

  backspace(): void {
    if (this.caret === 0) return
    const from = stepBack(this.text, this.caret)
    this.text = this.text.slice(0, from) + this.text.slice(this.caret)
    this.caret = from
  }

  deleteForward(): void {
    this.text = this.text.slice(0, this.caret) + this.text.slice(stepForward(this.text, this.caret))
  }

  left(): void { this.caret = stepBack(this.text, this.caret) }
  right(): void { this.caret = stepForward(this.text, this.caret) }
  home(): void { this.caret = this.text.lastIndexOf('\n', this.caret - 1) + 1 }
  end(): void {
    const nl = this.text.indexOf('\n', this.caret)
    this.caret = nl === -1 ? this.text.length : nl
  }

  /** Ctrl+U: deletes back to the line's start. */
  killBack(): void {
    const start = this.text.lastIndexOf('\n', this.caret - 1) + 1
    this.text = this.text.slice(0, start) + this.text.slice(this.caret)
    this.caret = start
  }

  /** Ctrl+K: deletes to the line's end. */
  killForward(): void {
    const nl = this.text.indexOf('\n', this.caret)
    this.text = this.text.slice(0, this.caret) + (nl === -1 ? '' : this.text.slice(nl))
  }

  /** Ctrl+W: deletes the word before the caret. */
  killWord(): void {
    const before = this.text.slice(0, this.caret).replace(/\S+\s*$/, '')
    this.text = before + this.text.slice(this.caret)
    this.caret = before.length
  }

  /** Up: the line above, or the previous history entry from the first line. */
  up(): void {
    const start = this.text.lastIndexOf('\n', this.caret - 1) + 1
    if (start > 0) {
      const prevStart = this.text.lastIndexOf('\n', start - 2) + 1
      this.caret = snap(this.text, Math.min(prevStart + (this.caret - start), start - 1))
      return
    }
    if (this.at === 0) return
    if (this.at === this.history.length) this.draft = this.text
    this.show(this.history[--this.at]!)
  }

  /** Down: the line below, or the next history entry from the last line. */
  down(): void {
    const nl = this.text.indexOf('\n', this.caret)
    if (nl !== -1) {
      const col = this.caret - (this.text.lastIndexOf('\n', this.caret - 1) + 1)
      const nextEnd = this.text.indexOf('\n', nl + 1)
      this.caret = snap(this.text, Math.min(nl + 1 + col, nextEnd === -1 ? this.text.length : nextEnd))
      return
    }
    if (this.at >= this.history.length) return
    this.at++
    this.show(this.at === this.history.length ? this.draft : this.history[this.at]!)
  }

  /** Empties the editor and answers what it held. */
  take(): string {
    const text = this.text
    this.text = ''
    this.caret = 0
    this.at = this.history.length
    this.draft = ''
    return text
  }

  set(text: string): void {
    this.show(text)
  }

  /**
   * Rows of the text under a prompt marker, wrapped at `width` columns, and the caret's place
   * among them. The first row starts with `prompt`; later rows are indented to match.
   */
  view(prompt: string, width: number): { rows: string[]; caret: { row: number; col: number } } {
    const indent = ' '.repeat(stringWidth(prompt))
    const room = Math.max(8, width - stringWidth(prompt) - 1)
    const rows: string[] = []
    let caret = { row: 0, col: stringWidth(prompt) }
    let offset = 0
    this.text.split('\n').forEach((line, i) => {
      const chunks = wrap(line, room)
      chunks.forEach((chunk, j) => {
        const lead = i === 0 && j === 0 ? prompt : indent
        const from = offset
        const to = offset + chunk.length
        const last = j === chunks.length - 1
        if (this.caret >= from && (this.caret < to || (last && this.caret === to))) {
          caret = { row: rows.length, col: stringWidth(lead) + stringWidth(chunk.slice(0, this.caret - from)) }
        }
        rows.push(lead + chunk)
        offset = to
      })
      offset += 1
    })
    return { rows, caret }
  }

  private show(text: string): void {
    this.text = text
    this.caret = text.length
  }
}

// The caret moves by what a person sees as one character: an emoji is two UTF-16 units (or a
// sequence of code points joined), and stopping between them would split it into lone halves
// that show as garbage and reach the model as invalid text.
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' })

/** The character boundary before `at` (a newline is a character of its own). */
function stepBack(text: string, at: number): number {
  if (at <= 0) return 0
  const start = text.lastIndexOf('\n', at - 1) + 1
  if (at === start) return at - 1
  let previous = start
  for (const { index } of graphemes.segment(text.slice(start, at))) previous = start + index
  return previous
}

/** The character boundary after `at`. */
function stepForward(text: string, at: number): number {
  if (at >= text.length) return text.length
  const first = graphemes.segment(text.slice(at, at + 64))[Symbol.iterator]().next().value
  return at + (first?.segment.length ?? 1)
}

/** `at`, or the start of the character it falls inside. */
function snap(text: string, at: number): number {
  const back = stepBack(text, at)
  return stepForward(text, back) === at ? at : back
}

function wrap(line: string, room: number): string[] {
  if (line === '') return ['']
  const out: string[] = []
  let current = ''
  for (const ch of line) {
    if (stringWidth(current + ch) > room) {
      out.push(current)
      current = ''
    }
    current += ch
  }
  out.push(current)
  return out
}
