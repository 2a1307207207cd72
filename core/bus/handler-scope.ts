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
 */
export const handlerScope = new AsyncLocalStorage<HandlerRef>()

/** The mod and event whose handler created the running work, if a handler did. */
export function runningHandler(): HandlerRef | undefined {
  return handlerScope.getStore()
}
