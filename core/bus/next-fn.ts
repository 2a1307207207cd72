/** What a `next` function reads its properties from. */
export interface NextSource {
  readonly event: string
  readonly budgetMs: number
  signal(): AbortSignal
  /** The handler's own time left, where a clock runs for it. */
  remainingMs?(): number
}

const SOURCE = Symbol('modloop.next')

// Getters on a shared prototype: a per-call `defineProperty` costs more than the whole dispatch,
// and the AbortSignal behind `next.signal` is only built when a handler reads it.
const NEXT_PROTO: object = Object.create(Function.prototype, {
  event: { get(this: { [SOURCE]: NextSource }) { return this[SOURCE].event } },
  // `remainingMs` stands still while a `next` or `$` call is in flight (spec mods §2.3); Infinity where nothing meters the handler.
  budget: {
    get(this: { [SOURCE]: NextSource }) {
      const source = this[SOURCE]
      return { ms: source.budgetMs, remainingMs: source.remainingMs?.() ?? (source.budgetMs > 0 ? source.budgetMs : Infinity) }
    },
  },
  signal: { get(this: { [SOURCE]: NextSource }) { return this[SOURCE].signal() } },
})

export function makeNext<F extends (e: any) => any>(source: NextSource, fn: F): F {
  ;(fn as unknown as { [SOURCE]: NextSource })[SOURCE] = source
  Object.setPrototypeOf(fn, NEXT_PROTO)
  return fn
}

/**
 * A signal that aborts with `outer`, built on demand. `release` unhooks it from `outer` once the
 * handler is done: `outer` (a turn's signal) outlives thousands of dispatches, and a listener left
 * by each would pile up (Node warns past ten).
 */
export function lazySignal(outer: AbortSignal | undefined): { signal(): AbortSignal; abort(reason: unknown): void; release(): void } {
  let controller: AbortController | undefined
  let pending: { reason: unknown } | undefined
  let follow: (() => void) | undefined
  return {
    signal() {
      if (!controller) {
        controller = new AbortController()
        if (pending) controller.abort(pending.reason)
        else if (outer?.aborted) controller.abort(outer.reason)
        else if (outer) {
          const own = controller
          follow = () => own.abort(outer.reason)
          outer.addEventListener('abort', follow, { once: true })
        }
      }
      return controller.signal
    },
    abort(reason) {
      if (controller) controller.abort(reason)
      else pending = { reason }
    },
    release() {
      if (follow) outer?.removeEventListener('abort', follow)
      follow = undefined
    },
  }
}
