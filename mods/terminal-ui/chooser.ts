import stringWidth from 'string-width'
import type { Paint } from './color.js'

export interface Choice<T> {
  label: string
  value: T
  /** Picking it asks for a line of text first (a denial's reason). */
  withText?: string
}

/** What a chooser answers: the choice picked (with its text), and, multi-select, every choice checked. */
export interface Chosen<T> { value: T; text?: string; checked?: T[] }

/**
 * A question with numbered choices, drawn in the live region: arrows or the digit move,
 * Enter picks, Esc answers `onCancel`. A choice `withText` turns the prompt into a text line.
 * `multi`: Space (or a choice's digit) checks or unchecks it, and Enter answers the checked ones.
 */
export class Chooser<T> {
  index = 0
  /** Set while the picked choice's text is being typed. */
  typing: Choice<T> | undefined
  /** The indexes checked, multi-select. */
  readonly checked = new Set<number>()

  constructor(
    readonly title: string[],
    readonly choices: Choice<T>[],
    readonly resolve: (answer: Chosen<T>) => void,
    readonly cancel: T,
    readonly multi = false,
  ) {}

  /** Space, multi-select: checks or unchecks the current choice (a text choice is picked with Enter instead). */
  toggle(): void {
    if (!this.multi || this.choices[this.index]!.withText) return
    if (!this.checked.delete(this.index)) this.checked.add(this.index)
  }

  move(by: number): void {
    // A search may have left nothing to move over.
    if (this.choices.length === 0) return
    this.index = (this.index + by + this.choices.length) % this.choices.length
  }

  /** A digit key: picks that choice at once (multi-select: checks or unchecks it, as Space does there). Answers whether the chooser is done. */
  digit(n: number): boolean {
    if (n < 1 || n > this.choices.length) return false
    this.index = n - 1
    if (!this.multi || this.choices[this.index]!.withText) return this.pick()
    this.toggle()
    return false
  }

  /** Enter: picks the current choice, or starts its text line. Answers whether the chooser is done. */
  pick(): boolean {
    const choice = this.choices[this.index]
    if (!choice) return false
    if (choice.withText) {
      this.typing = choice
      return false
    }
    // Enter with nothing checked takes the current choice alone.
    const checked = this.checked.size > 0 ? [...this.checked].sort((a, b) => a - b).map((i) => this.choices[i]!.value) : [choice.value]
    this.resolve({ value: choice.value, ...(this.multi ? { checked } : {}) })
    return true
  }

  /** The text typed for a `withText` choice is in: answers it, with what was checked besides. */
  typed(text: string): void {
    const checked = [...this.checked].sort((a, b) => a - b).map((i) => this.choices[i]!.value)
    this.resolve({ value: this.typing!.value, text, ...(this.multi ? { checked } : {}) })
  }

  /** The question's rows; its title and explanation wrap at `width` (a cut-off explanation hides what is asked). */
  lines(paint: Paint, width = Infinity): string[] {
    const box = (i: number) => (this.multi && !this.choices[i]!.withText ? (this.checked.has(i) ? '[x] ' : '[ ] ') : '')
    const rows = this.choices.map((c, i) => (i === this.index ? paint.cyan(`❯ ${i + 1}. ${box(i)}${c.label}`) : `  ${i + 1}. ${box(i)}${c.label}`))
    const hint = this.typing
      ? paint.dim('Enter to send · Esc to go back')
      : paint.dim(this.multi ? '↑↓ to move · Space or 1-9 to check · Enter to confirm · Esc to cancel' : '↑↓ or 1-9 to choose · Enter to confirm · Esc to cancel')
    const [first = '', ...rest] = this.title
    return [...wrap(first, width).map((t) => paint.bold(t)), ...rest.flatMap((t) => wrap(t, width)).map((t) => paint.dim(t)), ...rows, hint]
  }
}

/** Breaks plain text at spaces into rows of at most `width` columns, keeping its indent on every row; a longer word is left to be cut. */
export function wrap(text: string, width: number): string[] {
  if (stringWidth(text) <= width) return [text]
  const indent = /^ */.exec(text)![0]
  const rows: string[] = []
  let row = ''
  for (const word of text.slice(indent.length).split(/ +/)) {
    if (row && stringWidth(indent + row + ' ' + word) > width) {
      rows.push(indent + row)
      row = word
    } else row = row ? `${row} ${word}` : word
  }
  if (row) rows.push(indent + row)
  return rows
}
