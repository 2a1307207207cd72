import type { EventName, EventSpec } from '../events/catalog.js'
import type { ModApi } from '../mod/api.js'
import type { Predicate } from './matcher.js'
import type { DispatchContext, HandlerOptions, HookStream } from './types.js'

export type Below = (e: any) => Promise<any>
export type StreamBelow = (e: any) => HookStream<any, any>

/** Runs one handler (with everything beneath it as `below`), as the interceptors wrapped it. */
export type Invoke = (e: unknown, below: Below, ctx: DispatchContext) => Promise<unknown>
export type StreamInvoke = (e: unknown, below: StreamBelow, ctx: DispatchContext) => HookStream<unknown, unknown>

/** One registered handler as the bus holds it: the payload of its tap in the event's tapable hook. */
export interface Link {
  readonly mod: string
  readonly event: EventName
  readonly spec: EventSpec<any>
  readonly $: ModApi
  readonly handler: (...args: any[]) => any
  readonly predicate?: Predicate
  readonly matcherText?: string
  readonly options: HandlerOptions
  readonly budgetMs: number
  readonly failClosed: boolean
  /** Stray errors from its handler's work are attributed to its mod (see handler-scope.ts). */
  readonly attributed: boolean
  catchHandler?: (...args: any[]) => any
  disposed: boolean
}
