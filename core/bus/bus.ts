import { catalog, EVENT_NAMES, isEventName, specOf, type ChunkOf, type EventName, type PayloadOf, type ResultOf } from '../events/catalog.js'
import { ModloopError } from '../errors.js'
import type { ModApi } from '../mod/api.js'
import { toHookStream } from './hook-stream.js'
import { isolate } from './isolate.js'
import { isolateStream } from './isolate-stream.js'
import type { Below, Invoke, Link, StreamBelow, StreamInvoke } from './link.js'
import { compileMatcher, type Matcher } from './matcher.js'
import { runningHandler } from './handler-scope.js'
import { addTap, createHook, intercept, removeTap, tapsOf, type ModHook, type ModTap } from './taps.js'
import type { DispatchContext, HandlerFailure, HandlerOptions, HookStream, Registration } from './types.js'
import { provenanceInterceptor, type ProvenanceSink } from '../trace/interceptor.js'
import { timingInterceptor, type TraceListener } from '../trace/timing.js'

export type { TraceEntry } from '../trace/timing.js'

/** One link of a composed chain: the handler's link and how the interceptors run it. */
type ChainLink = Pick<ModTap, 'link' | 'invoke' | 'stream'>

export interface StackEntry {
  mod: string
  stage: number
  matcher?: string
  before: string[]
  after: string[]
  failClosed: boolean
  hasCatch: boolean
  /** The handler's own-time budget: the catalog's, or the longer or shorter one it declared. */
  budgetMs: number
}

const EMPTY_CTX: DispatchContext = {}
// Read on every registration for every tap of the event: no array made where there is none to read.
const NONE: readonly string[] = Object.freeze([])
const toList = (v: string | readonly string[] | undefined): readonly string[] => (v === undefined ? NONE : typeof v === 'string' ? [v] : v)

// A tap runs only as the isolation interceptor wrapped it; these stand until it does, at once.
const unwrapped: Invoke = () => Promise.reject(new Error('a handler ran before the isolation interceptor wrapped it'))
const unwrappedStream: StreamInvoke = () => { throw new Error('a handler ran before the isolation interceptor wrapped it') }

/**
 * The event bus: one tapable hook per catalog event whose taps are mod handlers, tapped under
 * the mod's name and ordered by tapable. Isolation, provenance and timing are register
 * interceptors; a dispatch composes the chain from the ordered taps (cached until they change)
 * with core's own behaviour beneath the last handler.
 */
export class Bus {
  private readonly hooks = new Map<EventName, ModHook>()
  private readonly chains = new Map<EventName, readonly ChainLink[]>()
  private failureListeners: ((f: HandlerFailure) => void)[] = []
  private provenanceSinks: ProvenanceSink[] = []
  private provenanceInstalled = false
  private traceListeners: TraceListener[] = []
  private traceInstalled = false
  /** Where a reloading mod's handlers go back: per event, the mods that ran inside it. */
  private readonly places = new Map<string, Map<EventName, string[]>>()
  // The events each mod has tapped, so disposing a mod walks those, not every event (a session's
  // close disposes ~30 mods, each of which had scanned ~100 events' handlers).
  private readonly tappedBy = new Map<string, Set<EventName>>()

  constructor() {
    const report = (f: HandlerFailure) => {
      for (const listen of this.failureListeners) listen(f)
    }
    for (const name of EVENT_NAMES) {
      const hook = createHook(name)
      intercept(hook, 'isolation', (tap) => ({ ...tap, invoke: isolate(tap.link, report), stream: isolateStream(tap.link, report) }))
      this.hooks.set(name, hook)
    }
  }

  /** Failures of handlers, each with {code, mod, event}; returns a disposer. */
  onFailure(listener: (f: HandlerFailure) => void): () => void {
    this.failureListeners = [...this.failureListeners, listener]
    return () => {
      this.failureListeners = this.failureListeners.filter((l) => l !== listener)
    }
  }

  /**
   * Records what each handler changed — rewrites, answers, denials, changed results — as
   * `{mod, event, before, after}`; returns a disposer. An interceptor on the events whose handlers
   * can change anything (not observe-only), installed on the first listener.
   */
  onProvenance(sink: ProvenanceSink): () => void {
    if (!this.provenanceInstalled) {
      this.provenanceInstalled = true
      const wrap = provenanceInterceptor(() => this.provenanceSinks)
      for (const [event, hook] of this.hooks) {
        if (specOf(event).kind === 'observe') continue
        intercept(hook, 'provenance', wrap)
        this.chains.delete(event)
      }
    }
    this.provenanceSinks = [...this.provenanceSinks, sink]
    return () => {
      this.provenanceSinks = this.provenanceSinks.filter((s) => s !== sink)
    }
  }

  /**
   * Records each handler's time and outcome (a streaming handler's until its stream's result);
   * returns a disposer. An interceptor, installed on the first listener, so it wraps handlers
   * already tapped too.
   */
  trace(listener: TraceListener): () => void {
    if (!this.traceInstalled) {
      this.traceInstalled = true
      const wrap = timingInterceptor(() => this.traceListeners)
      for (const hook of this.hooks.values()) intercept(hook, 'timing', wrap)
      this.chains.clear()
    }
    this.traceListeners = [...this.traceListeners, listener]
    return () => {
      this.traceListeners = this.traceListeners.filter((l) => l !== listener)
    }
  }

  register<N extends EventName>(
    mod: string,
    $: ModApi,
    event: N,
    matcher: Matcher | undefined,
    handler: (...args: any[]) => any,
    options: HandlerOptions = {},
    attributed = false,
  ): Registration<N> {
    if (!isEventName(event)) {
      throw new ModloopError('MODLOOP_ERR_UNKNOWN_EVENT', `${mod}: on("${String(event)}"): no such event. Events: ${EVENT_NAMES.join(', ')}`, { mod, event })
    }
    if (typeof handler !== 'function') {
      throw new ModloopError('MODLOOP_ERR_REGISTRATION', `${mod}: on("${event}") needs a handler function`, { mod, event })
    }
    const spec = specOf(event)
    if (options.failClosed && spec.policy !== 'closable') {
      throw new ModloopError('MODLOOP_ERR_REGISTRATION', `${mod}: ${event} cannot fail closed; only gate events can (${closableEvents().join(', ')})`, { mod, event })
    }
    const hook = this.hooks.get(event)!
    // One registration per event per matcher (spec mods §2.1): in a mod loaded from a file (a
    // config's, a plugin's), a second one without a matcher is a mistake (two handlers that each
    // think they are the mod's one), so the mod fails to load. Built-ins split one mod over files,
    // each with its own handlers, and are exempt.
    if (attributed && !matcher && tapsOf(hook).some((t) => t.link.mod === mod && !t.link.predicate && !t.link.disposed)) {
      throw new ModloopError('MODLOOP_ERR_REGISTRATION', `${mod}: on("${event}") is registered twice without a matcher: put everything the mod does on ${event} in one handler, or give each a matcher`, { mod, event })
    }
    const link: Link = {
      mod, event, spec, $, handler, options,
      predicate: matcher ? compileMatcher(matcher, `${mod}: on("${event}") matcher`) : undefined,
      matcherText: matcher ? describeMatcher(matcher) : undefined,
      budgetMs: options.budgetMs ?? spec.budgetMs,
      failClosed: options.failClosed ?? false,
      attributed,
      disposed: false,
    }
    // `after: X` is X's `before`: collect every mod already tapped that wants to run after this one.
    const taps = tapsOf(hook)
    const before = new Set(toList(options.before))
    for (const tap of taps) if (toList(tap.link.options.after).includes(mod)) before.add(tap.name)
    for (const name of this.places.get(mod)?.get(event) ?? []) if (taps.some((t) => t.name === name)) before.add(name)
    addTap(hook, link, [...before], unwrapped, unwrappedStream)
    this.chains.delete(event)
    const tapped = this.tappedBy.get(mod)
    if (tapped) tapped.add(event)
    else this.tappedBy.set(mod, new Set([event]))
    // Only a handler that names another mod (before, after) can find itself out of order, and most name none.
    const violation = tapsOf(hook).some(namesAnother) ? orderViolation(tapsOf(hook)) : undefined
    if (violation) {
      this.remove(event, link)
      throw new ModloopError('MODLOOP_ERR_ORDER', `${mod}: on("${event}"): ${violation}`, { mod, event })
    }
    const dispose = (() => this.remove(event, link)) as Registration<N>
    dispose.catch = (catchHandler) => {
      if (link.catchHandler) throw new ModloopError('MODLOOP_ERR_REGISTRATION', `${mod}: on("${event}") already has a .catch handler`, { mod, event })
      if (spec.stream) throw new ModloopError('MODLOOP_ERR_UNSUPPORTED', `${mod}: .catch on the streaming event ${event} is not supported by modloop; a failing ${event} handler is dropped mid-stream instead`, { mod, event })
      link.catchHandler = catchHandler as (...args: any[]) => any
      return dispose
    }
    return dispose
  }

  /** Runs `e` through every matching handler, outermost first, with `core` beneath them all. */
  emit<N extends EventName>(event: N, e: PayloadOf<N>, core?: (e: PayloadOf<N>) => ResultOf<N> | Promise<ResultOf<N>>, ctx: DispatchContext = EMPTY_CTX): Promise<ResultOf<N>> {
    return this.dispatch(this.chainFor(event), event, e, core, ctx)
  }

  /** Runs `e` through one mod's handlers only: a reloaded mod's own session.start. */
  emitTo<N extends EventName>(mod: string, event: N, e: PayloadOf<N>, core?: (e: PayloadOf<N>) => ResultOf<N> | Promise<ResultOf<N>>): Promise<ResultOf<N>> {
    return this.dispatch(this.chainFor(event).filter((c) => c.link.mod === mod), event, e, core, EMPTY_CTX)
  }

  private dispatch<N extends EventName>(chain: readonly ChainLink[], event: N, e: PayloadOf<N>, core: ((e: PayloadOf<N>) => ResultOf<N> | Promise<ResultOf<N>>) | undefined, ctx: DispatchContext): Promise<ResultOf<N>> {
    const bottom = core ?? specOf(event).echo
    if (!bottom) return Promise.reject(new ModloopError('MODLOOP_ERR_NEXT', `${event}: nothing beneath the last handler answers this event`, { event }))
    const n = chain.length
    // A dispatch a handler raised through `$` (its $.tool.call inside tool.call) skips that handler
    // only (spec mods §2.3); reaching it again, the call would raise itself without end. Known for
    // the handlers of mods imported from files, the ones run in their own scope. A dispatch that
    // names its caller (`$.ui.ask`) skips every handler of that mod.
    const caller = runningHandler()
    const callerMod = ctx.caller
    const step = (i: number): Below => (e) => {
      while (i < n && (chain[i]!.link === caller || chain[i]!.link.mod === callerMod || (chain[i]!.link.predicate && !chain[i]!.link.predicate!(e)))) i++
      if (i === n) {
        try {
          return Promise.resolve(bottom(e))
        } catch (err) {
          return Promise.reject(err)
        }
      }
      return chain[i]!.invoke(e, step(i + 1), ctx)
    }
    return step(0)(e) as Promise<ResultOf<N>>
  }

  /** The streaming form, for events whose handlers are async generators (`turn.step`). */
  stream<N extends EventName>(event: N, e: PayloadOf<N>, core: (e: PayloadOf<N>) => AsyncGenerator<ChunkOf<N>, ResultOf<N>, undefined>, ctx: DispatchContext = EMPTY_CTX): HookStream<ChunkOf<N>, ResultOf<N>> {
    const chain = this.chainFor(event)
    const n = chain.length
    const caller = runningHandler()
    const step = (i: number): StreamBelow => (e) => {
      while (i < n && (chain[i]!.link === caller || (chain[i]!.link.predicate && !chain[i]!.link.predicate!(e)))) i++
      if (i === n) return toHookStream(core(e))
      return chain[i]!.stream(e, step(i + 1), ctx)
    }
    return step(0)(e) as HookStream<ChunkOf<N>, ResultOf<N>>
  }

  /** True when some live handler is registered for the event (lets core skip optional work). */
  has(event: EventName): boolean {
    return this.chainFor(event).length > 0
  }

  /** The resolved handler order for an event, outermost first. */
  stack(event: EventName): StackEntry[] {
    return this.chainFor(event).map(({ link }) => ({
      mod: link.mod,
      stage: link.options.stage ?? 0,
      matcher: link.matcherText,
      before: [...toList(link.options.before)],
      after: [...toList(link.options.after)],
      failClosed: link.failClosed,
      hasCatch: link.catchHandler !== undefined,
      budgetMs: link.budgetMs,
    }))
  }

  /** Per event the mod handles, the mods whose handlers run inside (after) its last one. */
  followers(mod: string): Map<EventName, string[]> {
    const out = new Map<EventName, string[]>()
    for (const [event, hook] of this.hooks) {
      const taps = tapsOf(hook)
      const last = taps.findLastIndex((t) => t.name === mod)
      if (last >= 0) out.set(event, taps.slice(last + 1).map((t) => t.name).filter((n) => n !== mod))
    }
    return out
  }

  /** While a mod registers again (a reload), its handlers go back before `followers`; returns the undo. */
  keepPlaces(mod: string, followers: Map<EventName, string[]>): () => void {
    this.places.set(mod, followers)
    return () => this.places.delete(mod)
  }

  /** Removes every handler of a mod; its in-flight handlers become no-ops. */
  disposeMod(mod: string): void {
    const events = this.tappedBy.get(mod)
    if (!events) return
    this.tappedBy.delete(mod)
    for (const event of events) {
      const hook = this.hooks.get(event)!
      for (const tap of [...tapsOf(hook)]) if (tap.name === mod) this.remove(event, tap.link)
    }
  }

  private remove(event: EventName, link: Link): void {
    link.disposed = true
    removeTap(this.hooks.get(event)!, link)
    this.chains.delete(event)
  }

  private chainFor(event: EventName): readonly ChainLink[] {
    let chain = this.chains.get(event)
    if (!chain) {
      const hook = this.hooks.get(event)
      if (!hook) throw new ModloopError('MODLOOP_ERR_UNKNOWN_EVENT', `no such event: ${String(event)}`, { event })
      const links = Object.freeze(tapsOf(hook).map(({ link, invoke, stream }) => ({ link, invoke, stream })))
      this.chains.set(event, links)
      return links
    }
    return chain
  }
}

function closableEvents(): string[] {
  return EVENT_NAMES.filter((n) => catalog[n].policy === 'closable')
}

const namesAnother = (tap: ModTap): boolean => tap.link.options.before !== undefined || tap.link.options.after !== undefined

function orderViolation(taps: readonly ModTap[]): string | undefined {
  // A `before` is broken by any of the other mod's handlers above this one, an `after` by any below.
  const first = new Map<string, number>()
  const last = new Map<string, number>()
  taps.forEach((t, i) => {
    if (!first.has(t.name)) first.set(t.name, i)
    last.set(t.name, i)
  })
  for (const [i, tap] of taps.entries()) {
    for (const other of toList(tap.link.options.before)) {
      if ((first.get(other) ?? Infinity) < i) return `"${tap.name}" must run before "${other}", but stages or other constraints put it after`
    }
    for (const other of toList(tap.link.options.after)) {
      if ((last.get(other) ?? -1) > i) return `"${tap.name}" must run after "${other}", but stages or other constraints put it before`
    }
  }
  return undefined
}

function describeMatcher(m: Matcher): string {
  return Object.entries(m)
    .map(([k, v]) => `${k}=${v instanceof RegExp ? String(v) : JSON.stringify(v)}`)
    .join(',')
}
