import { ModloopError } from '../errors.js'
import { lendClock, payBack } from '../bus/watchdog.js'
import { API_METHODS, type ModApi, type ModLog, type StateRef } from './api.js'
import { capabilityApi, type CapabilityDeclarations, type CapabilityStore } from './capabilities.js'

export type Provider = (mod: string, ...args: any[]) => unknown
export type LogLevel = keyof ModLog
export type LogSink = (mod: string, level: LogLevel, text: string) => void

export interface ApiContext {
  mod: string
  root?: string
  version?: string
  options: Readonly<Record<string, unknown>>
  signal: AbortSignal
  isBound: () => boolean
  provider: (method: string) => Provider | undefined
  log: LogSink
  state: StateStore
  /** What `$.env` reads and writes; process.env unless the host was given its own. */
  env?: Record<string, string | undefined>
  capabilities: CapabilityStore
  /** What the mod's definition declares it provides and uses. */
  declared: CapabilityDeclarations
}

/** Host-held values per session, readable by every mod, writable only by their owner. */
export class StateStore {
  private readonly values = new Map<string, { value: unknown; version: number }>()

  get(ref: StateRef): { value: unknown; version: number } {
    return this.values.get(keyOf(ref)) ?? { value: undefined, version: 0 }
  }

  set(owner: string, ref: StateRef, value: unknown, ifVersion?: number): { isSet: boolean; version: number } {
    if (ref.plugin !== owner) {
      throw new ModloopError('MODLOOP_ERR_REGISTRATION', `${owner}: $.state.set may only write its own values, not "${ref.plugin}"`, { mod: owner })
    }
    const current = this.get(ref)
    if (ifVersion !== undefined && ifVersion !== current.version) return { isSet: false, version: current.version }
    const next = { value, version: current.version + 1 }
    this.values.set(keyOf(ref), next)
    return { isSet: true, version: next.version }
  }

  clear(): void {
    this.values.clear()
  }
}

const keyOf = (ref: StateRef) => `${ref.plugin}\u0000${ref.key}\u0000${ref.id ?? ''}`

/** Builds one mod's frozen `$`: built-in capabilities here, the rest through the host's providers. */
export function buildApi(ctx: ApiContext): ModApi {
  const { mod } = ctx
  const call = (method: string) => (...args: unknown[]) => {
    if (!ctx.isBound()) {
      throw new ModloopError('MODLOOP_ERR_NOT_BOUND', `${mod}: $.${method} was called during registration; call it from a handler (session.start is the place)`, { mod })
    }
    // A timer or callback of a copy that was reloaded (or removed) still holds its `$`: its calls
    // would act for the mod beside the new copy, a stale tool registered over the new one.
    if (ctx.signal.aborted) {
      throw new ModloopError('MODLOOP_ERR_DISPOSED', `${mod}: $.${method} refused: the copy of the mod that made the call is no longer loaded (it was reloaded or removed)`, { mod, method })
    }
    const provide = ctx.provider(method)
    if (!provide) {
      throw new ModloopError('MODLOOP_ERR_NO_PROVIDER', `${mod}: $.${method} has no provider in this host (it is served once the part of modloop that owns it is running)`, { mod, method })
    }
    // Waiting on a `$` call ($.model.complete, $.tool.call, $.ui.ask) is not the handler's own
    // time, as awaiting `next` is not (spec mods §2.6): the mod's handlers running now lend their
    // clocks to it until it settles, or until the handler goes on without awaiting it (see
    // lendClock). Lent before the call, so what the call itself starts (a handler of this mod on
    // the tool.call a $.tool.call raises) keeps a clock of its own.
    const id = lendClock(api)
    if (id === 0) return provide(mod, ...args)
    let r: unknown
    try {
      r = provide(mod, ...args)
    } catch (err) {
      payBack(api, id)
      throw err
    }
    if (isThenable(r)) {
      const back = () => payBack(api, id)
      r.then(back, back)
    } else payBack(api, id)
    return r
  }
  const api: Record<string, unknown> = {}
  for (const [ns, methods] of Object.entries(API_METHODS)) {
    const table: Record<string, unknown> = {}
    for (const m of methods) table[m] = call(`${ns}.${m}`)
    api[ns] = table
  }
  const log = (level: LogLevel) => (text: string) => ctx.log(mod, level, String(text))
  api.log = Object.freeze({ debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') })
  ;(api.ui as Record<string, unknown>).log = (text: string, options?: { to?: 'transcript' | 'debug' }) =>
    ctx.log(mod, options?.to === 'debug' ? 'debug' : 'info', String(text))
  api.state = {
    get: (ref: StateRef) => ctx.state.get(ref),
    set: (ref: StateRef, value: unknown, options?: { ifVersion?: number }) => ctx.state.set(mod, ref, value, options?.ifVersion),
  }
  // The session's environment once the loop serves it; before that the host's own (a test host's
  // isolated home), else this process's.
  const env = () => (ctx.provider('env.table')?.(mod) as Record<string, string | undefined> | undefined) ?? ctx.env ?? process.env
  api.env = {
    get: (name: string) => env()[name],
    set: (name: string, value: string | undefined) => {
      if (value === undefined) delete env()[name]
      else env()[name] = value
    },
    all: () => ({ ...env() }),
  }
  api.clock = clockFor(mod, ctx.signal)
  api.capability = capabilityApi(mod, ctx.declared, ctx.capabilities)
  for (const ns of Object.keys(api)) Object.freeze(api[ns])
  api.plugin = Object.freeze({ name: mod, root: ctx.root, version: ctx.version })
  api.options = ctx.options
  api.signal = ctx.signal
  return Object.freeze(api) as unknown as ModApi
}

/** Timers tied to the mod's signal, so disposing a mod cancels what it scheduled. */
function clockFor(mod: string, modSignal: AbortSignal) {
  // Each timer's listener leaves the mod's signal as the timer ends: a mod re-arming one timer all
  // session long (the cron mod) would pile them up, and Node warns past 10.
  const timer = (ms: number, fn: () => void, repeat: boolean) => {
    const cancel = () => {
      clearTimeout(handle)
      modSignal.removeEventListener('abort', cancel)
    }
    const handle = repeat ? setInterval(fn, ms) : setTimeout(() => {
      modSignal.removeEventListener('abort', cancel)
      fn()
    }, ms)
    handle.unref()
    modSignal.addEventListener('abort', cancel, { once: true })
    return { cancel }
  }
  return {
    now: () => Date.now(),
    sleep: (ms: number, options?: { signal?: AbortSignal }) =>
      new Promise<void>((resolve, reject) => {
        const signals = [modSignal, options?.signal].filter((s): s is AbortSignal => s !== undefined)
        const signal = signals.length === 1 ? signals[0]! : AbortSignal.any(signals)
        if (signal.aborted) return reject(signal.reason)
        const onAbort = () => {
          clearTimeout(t)
          reject(signal.reason)
        }
        const t = setTimeout(() => {
          signal.removeEventListener('abort', onAbort)
          resolve()
        }, ms)
        signal.addEventListener('abort', onAbort, { once: true })
      }),
    after: (ms: number, fn: () => void) => timer(ms, fn, false),
    // A period below 1 ms (0, a negative, NaN) is refused (spec mods §4 $.clock): Node would run it every millisecond.
    every: (ms: number, fn: () => void) => {
      if (!(ms >= 1)) throw new ModloopError('MODLOOP_ERR_USAGE', `${mod}: $.clock.every needs a period of at least 1 ms, got ${String(ms)}`, { mod, field: 'ms' })
      return timer(ms, fn, true)
    },
  }
}

function isThenable(v: unknown): v is PromiseLike<unknown> {
  return typeof v === 'object' && v !== null && typeof (v as { then?: unknown }).then === 'function'
}
