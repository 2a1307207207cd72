import type { Job } from './jobs-file.js'
import { maxAgeOf, nextRun } from './schedule.js'

/** The clock the scheduler runs on: the mod's `$.clock`, or a test's. */
export interface CronClock {
  now(): number
  after(ms: number, fn: () => void): { cancel(): void }
}

/** A job with its next run (ms); undefined when its expression matches no time to come. */
export type ScheduledJob = Job & { nextRunAt: number | undefined; wakeup?: true }

// A timer further out than this is re-armed on waking: Node runs a longer setTimeout at once.
const MAX_TIMER_MS = 24 * 60 * 60_000

/**
 * The jobs of one session, and the one timer that wakes for the earliest. A job that comes due
 * while a turn runs waits for the turn to end: jobs run only while the session is idle, each as a
 * turn of its own (`run`). A one-shot is deleted as it runs; a recurring job past its age runs a
 * last time (`last`) and is deleted too. `changed` hears of every change to a durable job.
 * With `runsJobs` false (a one-prompt run) only wake-ups run: the jobs are kept, listed and saved,
 * never run. `wakeup` hears whether a wake-up is pending each time that may have changed.
 */
export class Scheduler {
  private readonly jobs = new Map<string, ScheduledJob>()
  private timer: { cancel(): void } | undefined
  private busy = false
  private stopped = false

  constructor(
    private readonly clock: CronClock,
    private readonly run: (job: ScheduledJob, last: boolean) => void,
    private readonly changed: () => void,
    private readonly opts: { runsJobs?: boolean; wakeup?: (pending: boolean) => void } = {},
  ) {}

  add(job: Job): ScheduledJob {
    const from = job.recurring ? Math.max(job.lastFiredAt ?? job.createdAt, job.durable ? this.clock.now() : 0) : job.createdAt
    const scheduled = { ...job, nextRunAt: nextRun(job, from) }
    this.jobs.set(job.id, scheduled)
    this.arm()
    return scheduled
  }

  /** A ScheduleWakeup: `job`'s prompt runs once, at `at` (ms), and is not listed with the jobs. */
  addWakeup(job: Job, at: number): ScheduledJob {
    const scheduled: ScheduledJob = { ...job, recurring: false, durable: false, nextRunAt: at, wakeup: true }
    this.jobs.set(job.id, scheduled)
    this.arm()
    this.opts.wakeup?.(true)
    return scheduled
  }

  /** Cancels every pending wake-up; answers how many there were. */
  cancelWakeups(): number {
    const ids = [...this.jobs.values()].filter((j) => j.wakeup).map((j) => j.id)
    for (const id of ids) this.jobs.delete(id)
    this.arm()
    if (ids.length > 0) this.opts.wakeup?.(false)
    return ids.length
  }

  /** The wake-up waiting to fire, if one is. */
  pendingWakeup(): ScheduledJob | undefined {
    return [...this.jobs.values()].find((j) => j.wakeup)
  }

  /** Whether a wake-up is pending. */
  hasWakeup(): boolean {
    return this.pendingWakeup() !== undefined
  }

  remove(id: string): Job | undefined {
    const job = this.jobs.get(id)
    if (!job) return undefined
    this.jobs.delete(id)
    this.arm()
    return job
  }

  has(id: string): boolean {
    return this.jobs.has(id)
  }

  /** The jobs, durable ones first, each group in the order it was made. */
  list(): ScheduledJob[] {
    const all = [...this.jobs.values()].filter((j) => !j.wakeup)
    return [...all.filter((j) => j.durable), ...all.filter((j) => !j.durable)]
  }

  /** The durable jobs, as the file holds them. */
  durable(): Job[] {
    return this.list().filter((j) => j.durable).map(({ nextRunAt: _next, ...job }) => job)
  }

  /** A turn started (true) or ended (false): what came due meanwhile runs once it ends. */
  setBusy(busy: boolean): void {
    this.busy = busy
    if (!busy) this.check()
  }

  stop(): void {
    this.stopped = true
    this.timer?.cancel()
    this.timer = undefined
  }

  /** Runs every job that is due, in the order they came due, then waits for the next. */
  private check(): void {
    if (this.stopped || this.busy) return
    const now = this.clock.now()
    const due = this.runnable().filter((j) => j.nextRunAt !== undefined && j.nextRunAt <= now).sort((a, b) => a.nextRunAt! - b.nextRunAt!)
    let durableChanged = false
    let wokeUp = false
    for (const job of due) {
      const last = !job.recurring || now - job.createdAt >= maxAgeOf(job)
      if (last) this.jobs.delete(job.id)
      else {
        job.lastFiredAt = now
        job.nextRunAt = nextRun(job, now)
      }
      durableChanged ||= job.durable
      wokeUp ||= job.wakeup === true
      this.run(job, last && job.recurring)
    }
    if (durableChanged) this.changed()
    this.arm()
    // Told after its prompt was submitted: a run held open for it ends only once that turn ran.
    if (wokeUp) this.opts.wakeup?.(this.hasWakeup())
  }

  /** What may run: every job and wake-up, or only the wake-ups when jobs do not run. */
  private runnable(): ScheduledJob[] {
    const all = [...this.jobs.values()]
    return this.opts.runsJobs === false ? all.filter((j) => j.wakeup) : all
  }

  private arm(): void {
    this.timer?.cancel()
    this.timer = undefined
    if (this.stopped) return
    const times = this.runnable().map((j) => j.nextRunAt).filter((t): t is number => t !== undefined)
    if (times.length === 0) return
    const wait = Math.max(0, Math.min(...times) - this.clock.now())
    this.timer = this.clock.after(Math.min(wait, MAX_TIMER_MS), () => this.check())
  }
}
