import type { Paint } from './color.js'
import { fitTitle } from './tool-view.js'

export type Priority = 'now' | 'next' | 'later'
const ORDER: Priority[] = ['now', 'next', 'later']

/**
 * The prompts typed and not yet taken by a turn, mirroring the loop's input queue (spec
 * loop-and-sdk §6.1): a turn starts with the first by priority (`now`, `next`, `later`; FIFO
 * within one), and the `next` ones waiting when a tool round ends join that turn. They show in
 * the live region marked queued, and go to the scrollback once taken, where they belong.
 */
export class PendingPrompts {
  private readonly items: { text: string; priority: Priority }[] = []

  add(text: string, priority: Priority): void {
    this.items.push({ text, priority })
  }

  /** The prompt a turn just started with. */
  takeStarting(): string | undefined {
    for (const p of ORDER) {
      const i = this.items.findIndex((it) => it.priority === p)
      if (i >= 0) return this.items.splice(i, 1)[0]!.text
    }
    return undefined
  }

  /** The prompts that joined the running turn at its tool round. */
  takeJoining(): string[] {
    const joining = this.items.filter((it) => it.priority === 'next').map((it) => it.text)
    for (let i = this.items.length - 1; i >= 0; i--) if (this.items[i]!.priority === 'next') this.items.splice(i, 1)
    return joining
  }

  clear(): void {
    this.items.splice(0)
  }

  get size(): number {
    return this.items.length
  }

  lines(paint: Paint, width = Infinity): string[] {
    // A long prompt is cut, not its label: whether it waits is what the line is there to say.
    return this.items.map((it) => paint.dim(fitTitle('› ', it.text.replace(/\s+/g, ' '), `  (${it.priority === 'now' ? 'interrupting' : it.priority === 'later' ? 'after this turn' : 'queued'})`, width)))
  }
}

/** A prompt as the scrollback shows it once sent. */
export function promptText(text: string, paint: Paint): string {
  return `${paint.bold('›')} ${text.split('\n').join('\n  ')}`
}
