import cliTruncate from 'cli-truncate'
import type { Paint } from './color.js'

export interface MenuCommand { name: string; description: string }

const ROWS = 5

/**
 * The `/command` menu under the prompt while a command name is being typed: the commands whose
 * name starts with it, one highlighted (↑↓ move it, Tab completes it, Enter runs it), shown five
 * rows at a time so that every command can be reached, not only the first five.
 */
export class CommandMenu {
  private commands: MenuCommand[] = []
  private selected = 0
  /** The text the selection was made for: typing something else starts again at the top. */
  private typed = ''

  set(commands: MenuCommand[]): void {
    this.commands = [...commands].sort((a, b) => a.name.localeCompare(b.name))
  }

  /** The commands the prompt's text names the start of; none unless it is a lone `/word`. */
  matches(text: string): MenuCommand[] {
    if (!/^\/[^\s]*$/.test(text)) return []
    return this.commands.filter((c) => c.name.startsWith(text.slice(1)))
  }

  /** The highlighted command for `text`, if the menu shows. */
  current(text: string): MenuCommand | undefined {
    const shown = this.matches(text)
    return shown[this.index(text, shown.length)]
  }

  move(text: string, by: number): void {
    const n = this.matches(text).length
    if (n === 0) return
    this.selected = (this.index(text, n) + by + n) % n
  }

  lines(text: string, p: Paint, width: number): string[] {
    const shown = this.matches(text)
    if (shown.length === 0) return []
    const at = this.index(text, shown.length)
    const from = Math.min(Math.max(0, at - ROWS + 1), Math.max(0, shown.length - ROWS))
    const nameWidth = Math.max(...shown.map((c) => c.name.length)) + 3
    return shown.slice(from, from + ROWS).map((c, i) => {
      const mine = from + i === at
      const line = `${mine ? '❯' : ' '} ${`/${c.name}`.padEnd(nameWidth)}${c.description}`
      return cliTruncate(mine ? p.cyan(line) : `${p.cyan(line.slice(0, nameWidth + 2))}${p.dim(line.slice(nameWidth + 2))}`, width)
    })
  }

  private index(text: string, n: number): number {
    if (text !== this.typed) {
      this.typed = text
      this.selected = 0
    }
    return Math.min(this.selected, Math.max(0, n - 1))
  }
}
