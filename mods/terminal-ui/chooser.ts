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

  lines(paint: Paint): string[] {
    const rows = this.choices.map((c, i) => (i === this.index ? paint.cyan(`❯ ${i + 1}. ${c.label}`) : `  ${i + 1}. ${c.label}`))
    const hint = this.typing ? paint.dim('Enter to send · Esc to go back') : paint.dim('↑↓ or 1-9 to choose · Enter to confirm · Esc to cancel')
    return [paint.bold(this.title[0] ?? ''), ...this.title.slice(1).map((t) => paint.dim(t)), ...rows, hint]
  }
}
