/**
 * One shared timer watches every running handler's own time, so a dispatch costs a Set insert
 * and delete instead of a timer per handler. A handler's clock stops while it awaits `next`.
 */
export interface Watched {
  readonly budgetMs: number
  /** Own time so far, or -1 while the clock is stopped (awaiting what is beneath). */
  ownMs(now: number): number
  expire(): void
}

const active = new Set<Watched>()
let timer: NodeJS.Timeout | undefined
let timerAt = Infinity
const MIN_TICK_MS = 5

export function watch(w: Watched, now: number): void {
  active.add(w)
  arm(now + w.budgetMs, now)
}

export function unwatch(w: Watched): void {
  active.delete(w)
}

function arm(at: number, now: number): void {
  if (timer !== undefined && at >= timerAt - 1) return
  if (timer !== undefined) clearTimeout(timer)
  timerAt = at
  timer = setTimeout(tick, Math.max(MIN_TICK_MS, at - now))
  timer.unref()
}

function tick(): void {
  timer = undefined
  timerAt = Infinity
  const now = performance.now()
  let soonest = Infinity
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
      soonest = Math.min(soonest, now + (w.budgetMs - own))
    }
  }
  if (active.size > 0 && soonest < Infinity) arm(soonest, now)
}
