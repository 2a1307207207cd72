import stringWidth from 'string-width'
import type { Paint } from './color.js'

export interface Choice<T> {
  label: string
  value: T
  /** Picking it asks for a line of text first (a denial's reason). */
  withText?: string
}

/**
 * A question with numbered choices, drawn in the live region: arrows or the digit move,
 * Enter picks, Esc answers `onCancel`. A choice `withText` turns the prompt into a text line.
 */
export class Chooser<T> {
  index = 0
  /** Set while the picked choice's text is being typed. */
  typing: Choice<T> | undefined

  constructor(
    readonly title: string[],
    readonly choices: Choice<T>[],
    readonly resolve: (answer: { value: T; text?: string }) => void,
    readonly cancel: T,
  ) {}

  move(by: number): void {
    this.index = (this.index + by + this.choices.length) % this.choices.length
  }

  /** A digit key: picks that choice at once. Answers whether the chooser is done. */
  digit(n: number): boolean {
    if (n < 1 || n > this.choices.length) return false
    this.index = n - 1
    return this.pick()
  }

  /** Enter: picks the current choice, or starts its text line. Answers whether the chooser is done. */
  pick(): boolean {
    const choice = this.choices[this.index]!
    if (choice.withText) {
      this.typing = choice
      return false
    }
    this.resolve({ value: choice.value })
    return true
  }

  /** The question's rows; its title and explanation wrap at `width` (a cut-off explanation hides what is asked). */
  lines(paint: Paint, width = Infinity): string[] {
    const rows = this.choices.map((c, i) => (i === this.index ? paint.cyan(`❯ ${i + 1}. ${c.label}`) : `  ${i + 1}. ${c.label}`))
    const hint = this.typing ? paint.dim('Enter to send · Esc to go back') : paint.dim('↑↓ or 1-9 to choose · Enter to confirm · Esc to cancel')
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
