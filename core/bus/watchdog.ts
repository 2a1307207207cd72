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
  /** The `$` of the handler's mod: what `lendClock` matches. */
  readonly owner: object
  /** Its clock lent to `$` calls (see lendClock): the first call's id (0: not lent), how many are in flight, the stretch of code that made them. */
  lentTo: number
  lentCalls: number
  lentIn: number
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

// Stretches of code: the number goes up once the code running now has given way (a microtask
// after it), so calls in one stretch come from code that has awaited none of them yet.
let stretch = 0
let stretchQueued = false
let lastCall = 0
const endStretch = () => {
  stretch++
  stretchQueued = false
}

/**
 * Stops the clocks of the running handlers of one mod (`owner`, its `$`) for a `$` call it makes
 * (spec mods §2.6): the mod waits on the call, not on its own code. Returns the call's id for
 * `payBack` (0: no clock was lent). A mod is not told which of its handlers is calling (that
 * would take an AsyncLocalStorage store on every dispatch), so a sibling whose own code runs
 * meanwhile is lent too; one awaiting `next` is stopped already and is not.
 * The clock runs again when every call made while it was lent settled, or as soon as the handler
 * is seen going on without them: calling `next` from a later stretch of code than the one that
 * made the call (code after an awaited call cannot run before it settles). Calls made in one
 * stretch (`Promise.all`) share the lend.
 */
export function lendClock(owner: object): number {
  let id = 0
  let now = -1
  for (const w of active) {
    if (w.owner !== owner) continue
    // A clock lent already stays lent, to this call too: the call may be a sibling handler's,
    // made while this one still waits on its own (a mod is not told which handler calls).
    if (w.lentTo === 0) {
      if (now < 0) now = performance.now()
      if (w.ownMs(now) < 0) continue
      w.pause()
      w.lentTo = id ||= ++lastCall
      w.lentCalls = 0
      w.lentIn = stretch
    }
    id ||= ++lastCall
    w.lentCalls++
  }
  if (id !== 0 && !stretchQueued) {
    stretchQueued = true
    queueMicrotask(endStretch)
  }
  return id
}

/** The call `id` of `owner` settled: a clock lent to it runs again once no call of that lend is in flight. */
export function payBack(owner: object, id: number): void {
  for (const w of active) {
    if (w.owner !== owner || w.lentTo === 0 || id < w.lentTo) continue
    if (--w.lentCalls === 0) wentOn(w)
  }
}

/** Before a handler waits on what is beneath: a lend from an earlier stretch of its code is over (it did not await that call). */
export function stepping(w: Watched): void {
  if (w.lentTo !== 0 && w.lentIn !== stretch) wentOn(w)
}

function wentOn(w: Watched): void {
  w.lentTo = 0
  w.lentCalls = 0
  w.resume()
}

/** A handler of `owner` (a mod's `$`) whose code made the `$` call being served now, as far as lendClock tells. */
export function callerOf(owner: object): Watched | undefined {
  for (const w of active) if (w.owner === owner && w.lentTo !== 0 && w.lentIn === stretch) return w
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
