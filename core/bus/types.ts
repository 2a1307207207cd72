import type { ChunkOf, EventName, PayloadOf, ResultOf, StreamingEventName } from '../events/catalog.js'
import type { ErrorCode } from '../errors.js'
import type { ModApi } from '../mod/api.js'
import type { Matcher } from './matcher.js'

export interface NextBase<N extends EventName> {
  /** This dispatch's event name. */
  readonly event: N
  /** Aborts when the call this dispatch belongs to is abandoned, or this handler's budget ran out. */
  readonly signal: AbortSignal
  /** `ms`: the handler's whole own-time allowance; `remainingMs`: what is left of it (Infinity where nothing meters it). */
  readonly budget: { readonly ms: number; readonly remainingMs: number }
}

/** `next(e)` runs everything beneath (later handlers, then core) and resolves to its result. */
export interface Next<N extends EventName> extends NextBase<N> {
  (e: PayloadOf<N>): Promise<ResultOf<N>>
}

/** What beneath a streaming handler yields: its chunks, then its result; `.result` settles at the end. */
export interface HookStream<C, R> extends AsyncGenerator<C, R, undefined> {
  readonly result: Promise<R>
}

export interface StreamNext<N extends EventName> extends NextBase<N> {
  (e: PayloadOf<N>): HookStream<ChunkOf<N>, ResultOf<N>>
}

export type FailureKind = 'throw' | 'timeout' | 'shape' | 'kind'

export interface HandlerFailure {
  code: ErrorCode
  kind: FailureKind
  mod: string
  event: EventName
  message: string
  error?: unknown
  /** What happened instead: the handler was skipped, its next result kept, it failed closed, or its catch answered. */
  outcome: 'skipped' | 'kept' | 'closed' | 'caught'
}

export type CatchInfo = { readonly error: { kind: FailureKind; message: string }; readonly called: boolean }

export type Handler<N extends EventName> = N extends StreamingEventName
  ? ($: ModApi, e: PayloadOf<N>, next: StreamNext<N>) => AsyncGenerator<ChunkOf<N>, ResultOf<N> | void, undefined>
  : ($: ModApi, e: PayloadOf<N>, next: Next<N>) => ResultOf<N> | Promise<ResultOf<N>>

export type CatchHandler<N extends EventName> = N extends StreamingEventName
  ? never
  : ($: ModApi, e: PayloadOf<N>, next: Next<N> & CatchInfo) => ResultOf<N> | undefined | Promise<ResultOf<N> | undefined>

export interface HandlerOptions {
  /** Lower stages run outer (earlier). Same stage: registration order. */
  stage?: number
  /** Run outside (before) the handlers of these mods. */
  before?: string | readonly string[]
  /** Run inside (after) the handlers of these mods. */
  after?: string | readonly string[]
  /** On a gate event, a failure of this handler denies instead of being skipped. */
  failClosed?: boolean
  /** Override the catalog's own-time budget for this handler, in ms. */
  budgetMs?: number
}

/** Calling it removes the handler; `.catch` decides the outcome of the handler's own failure. */
export interface Registration<N extends EventName> {
  (): void
  catch(handler: CatchHandler<N>): Registration<N>
}

/** Named stages, outermost first. */
export const STAGE = { guard: -200, early: -100, normal: 0, late: 100, last: 200 } as const

export interface On {
  <N extends EventName>(event: N, handler: NoInfer<Handler<N>>, options?: HandlerOptions): Registration<N>
  <N extends EventName>(event: N, matcher: Matcher, handler: NoInfer<Handler<N>>, options?: HandlerOptions): Registration<N>
}

export interface DispatchContext {
  signal?: AbortSignal
  /** A mod whose handlers this dispatch passes over: the one that raised it through `$` (`$.ui.ask`'s tool.call runs through every hook but the caller's). */
  caller?: string
}
