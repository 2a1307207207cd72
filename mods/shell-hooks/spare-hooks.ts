import type { On } from '../../core/bus/types.js'
import type { ModApi } from '../../core/mod/api.js'
import type { HookBridge } from './bridge.js'

// As the Bash mod's spare: a little into the stream, so an answer that comes whole is not held up.
const SPARE_AFTER_MS = 2

/**
 * While the model streams its answer, the shell for the next shell-form command hook starts
 * (hooks-runner's SpareSh): the fork costs the model's time, not the round's. Only sessions whose
 * hooks have run a shell keep one, and not when the whole answer came at once: a fork then would
 * hold up the round it was to spare.
 */
export function registerSpareHooks(on: On, bridgeOf: ($: ModApi) => HookBridge | undefined): void {
  on('turn.step', async function* ($, e, next) {
    const spare = bridgeOf($)?.runner.spare
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
