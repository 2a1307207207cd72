import type { On } from '../../core/bus/types.js'
import type { ModApi } from '../../core/mod/api.js'

// A little into the stream: an answer that comes whole is over by then, and starts nothing.
const SPARE_AFTER_MS = 2

/** A process a mod starts ahead of its next use (the spare bash, a hook's spare sh). */
export interface Spare {
  needed(): boolean
  prepare(): void
}

/**
 * While the model streams its answer, the session's spare starts: its fork costs the model's
 * time, not the round's. Only when the spare is wanted, and not when the whole answer came at
 * once: a fork then would hold up the round it was to spare.
 */
export function prepareWhileStreaming(on: On, spareOf: ($: ModApi) => Spare | undefined): void {
  on('turn.step', async function* ($, e, next) {
    const spare = spareOf($)
    const s = next(e)
    if (!spare?.needed()) return yield* s
    const first = await s.next()
    if (first.done) return first.value
    const timer = setTimeout(() => spare.prepare(), SPARE_AFTER_MS)
    timer.unref()
    try {
      yield first.value
      return yield* s
    } finally {
      clearTimeout(timer)
    }
  })
}
