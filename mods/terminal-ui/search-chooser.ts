import { Chooser, wrap, type Choice, type Chosen } from './chooser.js'
import type { Paint } from './color.js'
import type { Key } from './app.js'

/**
 * A chooser whose choices a search narrows, as Claude Code's session picker: `/` starts the search
 * (or it opens with one, `--resume <text>`), what is typed then goes into it and Backspace takes it
 * back, while the arrows and Enter still move and pick. The first `shown` matches are listed; each
 * word of the search must be in a choice's `text`, whatever the case.
 */
export class SearchChooser<T> extends Chooser<T> {
  /** Set while typing goes into the search (so digits are search text, not picks). */
  searching: boolean

  constructor(
    title: string[],
    private readonly all: (Choice<T> & { text: string })[],
    resolve: (answer: Chosen<T>) => void,
    cancel: T,
    public search = '',
    private readonly shown = 9,
  ) {
    super(title, [], resolve, cancel)
    this.searching = search !== ''
    this.narrow()
  }

  /** A key the search takes (answers true), or leaves to the chooser (false). */
  searchKey(str: string | undefined, key: Key): boolean {
    if (!this.searching) {
      if (str !== '/') return false
      this.searching = true
      return true
    }
    if (key.name === 'backspace') {
      this.search = this.search.slice(0, -1)
      this.narrow()
      return true
    }
    if (!str || key.ctrl || key.meta || !/^[^\x00-\x1f\x7f]+$/.test(str) || ['return', 'escape', 'tab', 'up', 'down'].includes(key.name ?? '')) return false
    this.search += str
    this.narrow()
    return true
  }

  override lines(paint: Paint, width = Infinity): string[] {
    const [first = '', ...rest] = this.title
    const head = [...wrap(first, width).map((t) => paint.bold(t)), ...rest.flatMap((t) => wrap(t, width)).map((t) => paint.dim(t))]
    const search = this.searching ? [`Search: ${this.search}${paint.dim('_')}`] : []
    const rows = this.choices.map((c, i) => (i === this.index ? paint.cyan(`❯ ${i + 1}. ${c.label}`) : `  ${i + 1}. ${c.label}`))
    const none = this.choices.length === 0 ? [paint.dim(`  No session matches "${this.search}"`)] : []
    const hint = this.searching
      ? paint.dim('Type to search · ↑↓ to move · Enter to confirm · Esc to cancel')
      : paint.dim('↑↓ or 1-9 to choose · / to search · Enter to confirm · Esc to cancel')
    return [...head, ...search, ...rows, ...none, hint]
  }

  private narrow(): void {
    const words = this.search.toLowerCase().split(/\s+/).filter(Boolean)
    const matching = this.all.filter((c) => words.every((w) => c.text.toLowerCase().includes(w)))
    this.choices.splice(0, this.choices.length, ...matching.slice(0, this.shown))
    this.index = 0
  }
}
