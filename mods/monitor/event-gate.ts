/** How many notifications a monitor may send before it is held back, and then stopped. */
export interface RateLimits {
  /** The length of one counting window, opened by the first notification after a quiet spell. */
  windowMs: number
  /** Notifications sent within one window; the rest of the window's are held back and counted. */
  maxPerWindow: number
  /** Windows in a row with notifications held back, after which the monitor is stopped. */
  maxFloodedWindows: number
}

export const DEFAULT_RATE: RateLimits = { windowMs: 10_000, maxPerWindow: 10, maxFloodedWindows: 3 }

/**
 * Keeps a chatty monitor from flooding the conversation: every notification is a message the
 * model must read. Past the window's allowance its batches are held back, and the model hears
 * once, as the window closes, how many; a monitor that keeps flooding window after window is
 * a filter too wide to be useful, so it is stopped (`onOverrun`) and the model told to narrow it.
 */
export class EventGate {
  private window: { sent: number; held: number; timer: NodeJS.Timeout } | undefined
  private flooded = 0

  constructor(private readonly limits: RateLimits, private readonly onHeld: (count: number) => void, private readonly onOverrun: () => void) {}

  /** Whether this notification goes out. */
  admit(): boolean {
    this.window ??= { sent: 0, held: 0, timer: setTimeout(() => this.close(), this.limits.windowMs) }
    if (this.window.sent < this.limits.maxPerWindow) {
      this.window.sent++
      return true
    }
    this.window.held++
    return false
  }

  private close(): void {
    const held = this.window?.held ?? 0
    this.window = undefined
    if (held === 0) {
      this.flooded = 0
      return
    }
    if (++this.flooded >= this.limits.maxFloodedWindows) return this.onOverrun()
    this.onHeld(held)
  }

  dispose(): void {
    clearTimeout(this.window?.timer)
    this.window = undefined
  }
}
