/**
 * A clock a test moves by hand, for a mod that takes one (the cron mod's `clock` option): `now()`
 * reads the time set, and timers run only when the test says so, never on their own.
 */
export class ManualClock {
  private timers: { at: number; fn: () => void }[] = []

  constructor(private time: number) {}

  now(): number {
    return this.time
  }

  after(ms: number, fn: () => void): { cancel(): void } {
    const timer = { at: this.time + Math.max(0, ms), fn }
    this.timers.push(timer)
    return { cancel: () => { this.timers = this.timers.filter((t) => t !== timer) } }
  }

  /** Moves the time on without running any timer (a machine that slept). */
  set(time: number): void {
    this.time = time
  }

  /** When the earliest timer is due, or undefined when none is pending. */
  get nextAt(): number | undefined {
    return this.timers.length === 0 ? undefined : Math.min(...this.timers.map((t) => t.at))
  }

  /** Runs the earliest timer, the time moved on to its due time first (never back); false when none is pending. */
  runNext(): boolean {
    const at = this.nextAt
    if (at === undefined) return false
    const timer = this.timers.find((t) => t.at === at)!
    this.timers = this.timers.filter((t) => t !== timer)
    this.time = Math.max(this.time, at)
    timer.fn()
    return true
  }
}
