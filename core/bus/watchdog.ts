/**
 * One shared timer watches every running handler's own time, so a dispatch costs a Set insert
 * and delete instead of a timer per handler. A handler's clock stops while it awaits `next`.
 *
 * The timer holds the process open while a handler's clock runs: a handler that never settles
 * must reach its budget and be reported, not let Node drain the event loop and exit as if the
 * run had ended. With no clock running (nothing watched, or every handler waiting on what is
 * beneath) it lets go, so an idle embedder's process can still exit.
 */
export interface Watched {
  readonly budgetMs: number
  /** Who is watched, for a report of what a stalled run was waiting on: `mod (event)`. */
  readonly label: string
  /** The `$` of the handler's mod: what `pauseFor` matches. */
  readonly owner: object
  /** Own time so far, or -1 while the clock is stopped (awaiting what is beneath). */
  ownMs(now: number): number
  /** Stops the clock until as many `resume` calls came; nests with the stops of `next`. */
  pause(): void
  resume(): void
  expire(): void
}

const active = new Set<Watched>()
let timer: NodeJS.Timeout | undefined
let timerAt = Infinity
let holding = false
const MIN_TICK_MS = 5
const MAX_TICK_MS = 2 ** 31 - 1

export function watch(w: Watched, now: number): void {
  active.add(w)
  arm(now + w.budgetMs, now)
  hold(true)
}

/** What is being watched now, oldest first. */
export function watching(): string[] {
  return [...active].map((w) => w.label)
}

/**
 * Stops the clocks of every watched handler of one mod (`owner`, its `$`) until the returned
 * function is called (undefined when none runs): the mod waits on a `$` call, not on its own code. A mod is not
 * told which of its calls is asking (that would take an AsyncLocalStorage store on every
 * dispatch), so a sibling call of the same mod that runs meanwhile is not metered either.
 */
export function pauseFor(owner: object): (() => void) | undefined {
  let paused: Watched[] | undefined
  for (const w of active) if (w.owner === owner) (paused ??= []).push(w)
  // Nothing of the owner's runs now (the common case, a $ call outside any timed handler): nothing to resume.
  if (!paused) return undefined
  for (const w of paused) w.pause()
  let resumed = false
  return () => {
    if (resumed) return
    resumed = true
    for (const w of paused) w.resume()
  }
}

/** A handler of `owner` (a mod's `$`) whose dispatch is not over, awaiting or not, if one is. */
export function runningOf(owner: object): Watched | undefined {
  for (const w of active) if (w.owner === owner) return w
  return undefined
}

export function unwatch(w: Watched): void {
  active.delete(w)
  if (active.size === 0) hold(false)
}

function hold(on: boolean): void {
  if (holding === on) return
  holding = on
  if (timer === undefined) return
  if (on) timer.ref()
  else timer.unref()
}

function arm(at: number, now: number): void {
  if (timer !== undefined && at >= timerAt - 1) return
  if (timer !== undefined) clearTimeout(timer)
  timerAt = at
  // Past 2^31 - 1 ms Node would fire at once; a budget that long is checked again then.
  timer = setTimeout(tick, Math.min(MAX_TICK_MS, Math.max(MIN_TICK_MS, at - now)))
  if (!holding) timer.unref()
}

function tick(): void {
  timer = undefined
  timerAt = Infinity
  const now = performance.now()
  let soonest = Infinity
  let running = false
  for (const w of active) {
    const own = w.ownMs(now)
    if (own < 0) {
      soonest = Math.min(soonest, now + w.budgetMs)
      continue
    }
    if (own >= w.budgetMs) {
      active.delete(w)
      w.expire()
    } else {
      running = true
      soonest = Math.min(soonest, now + (w.budgetMs - own))
    }
  }
  holding = running
  if (active.size > 0 && soonest < Infinity) arm(soonest, now)
}
