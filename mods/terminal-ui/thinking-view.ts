import type { Paint } from './color.js'
import { printable } from './tool-view.js'

export const EXPAND_HINT = 'ctrl+o to expand'
export const COLLAPSE_HINT = 'ctrl+o to collapse'

/**
 * The thinking of the conversation as the terminal prints it. A block streams dimmed in the live
 * region; once it ends the scrollback gets one dim line for it (`∴ Thought for 3s (12 lines)`)
 * while the text is kept. Ctrl+O toggles expansion: turning it on prints the kept thinking of the
 * latest turn that thought, and while it is on each new block prints in full. The scrollback only
 * grows, so "collapse" means later blocks go back to one line; what was printed stays.
 */
export class ThinkingLog {
  expanded = false
  /** The blocks of the latest turn that thought. */
  private blocks: string[] = []
  private freshTurn = true
  private startedAt: number | undefined

  constructor(private readonly paint: Paint) {}

  /** A new turn began: its first block replaces what Ctrl+O shows. */
  turnStarted(): void {
    this.freshTurn = true
  }

  blockStarted(): void {
    this.startedAt = performance.now()
  }

  /** A block ended (or arrived whole, untimed): answers what to print for it, if anything. */
  blockEnded(text: string): string | undefined {
    const body = printable(text).trim()
    const ms = this.startedAt === undefined ? undefined : performance.now() - this.startedAt
    this.startedAt = undefined
    if (!body) return undefined
    if (this.freshTurn) {
      this.blocks = []
      this.freshTurn = false
    }
    this.blocks.push(body)
    return this.expanded ? this.full(body) : this.collapsed(body, ms)
  }

  /** Ctrl+O: answers the text to print for the switch. */
  toggle(): string {
    const p = this.paint
    this.expanded = !this.expanded
    if (!this.expanded) return p.dim(`∴ Thinking collapsed · ${EXPAND_HINT}`)
    if (this.blocks.length === 0) return p.dim(`∴ No thinking yet; new thinking shows in full · ${COLLAPSE_HINT}`)
    return [p.dim(`∴ Thinking of the last turn · ${COLLAPSE_HINT}`), ...this.blocks.map((b) => this.full(b))].join('\n')
  }

  private collapsed(body: string, ms: number | undefined): string {
    const count = body.split('\n').length
    const took = ms === undefined ? '' : ` for ${ms < 1000 ? '<1s' : `${Math.round(ms / 1000)}s`}`
    return this.paint.dim(`∴ Thought${took} (${count} ${count === 1 ? 'line' : 'lines'}) · ${EXPAND_HINT}`)
  }

  private full(body: string): string {
    return this.paint.dim(`∴ ${body.split('\n').join('\n  ')}`)
  }
}
