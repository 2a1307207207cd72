import { AsyncLocalStorage } from 'node:async_hooks'

/** The handler (or register) whose code is running: the store is the link itself, so entering costs no allocation. */
export interface HandlerRef {
  readonly mod: string
  readonly event: string
}

/**
 * Which mod's code created the work now running. Promises and timers a handler creates carry it,
 * so an error nobody awaited — a rejection in a timer, a throw in a callback — can be reported
 * against the mod that caused it (the CLI's process guard reads it). What runs beneath `next`
 * leaves the scope, so core's own work is never blamed on the handler that called it.
 *
 * Only mods whose code modloop imported from a file (a user's, a plugin's) are entered: once a
 * store is set, Node hooks every promise the process makes (~14% of a cold one-turn run, a third
 * of a tool round's time), and built-in mods are modloop's own code, whose stray error is
 * modloop's to report. A session of built-in mods never turns the hooks on.
 */
export const handlerScope = new AsyncLocalStorage<HandlerRef>()

// Whether any scope was ever entered: until then no work runs in one, and asking the store on
// every dispatch (the bus asks which handler raised it) would cost a session of built-in mods for nothing.
let entered = false

/** The mod and event whose handler created the running work, if an attributed handler did. */
export function runningHandler(): HandlerRef | undefined {
  return entered ? handlerScope.getStore() : undefined
}

/**
 * Calls `fn` in `ref`'s scope, or — with no `ref` — outside any scope. Leaving a scope costs
 * nothing unless one is set (only ever after an attributed mod's code ran).
 */
export function runIn<A extends unknown[], R>(ref: HandlerRef | undefined, fn: (...args: A) => R, ...args: A): R {
  if (ref) {
    entered = true
    return handlerScope.run(ref, fn, ...args)
  }
  return !entered || handlerScope.getStore() === undefined ? fn(...args) : handlerScope.run(undefined as never, fn, ...args)
}
