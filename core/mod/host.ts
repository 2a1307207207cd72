import { z } from 'zod'
import { Bus } from '../bus/bus.js'
import { runIn } from '../bus/handler-scope.js'
import type { Matcher } from '../bus/matcher.js'
import type { HandlerFailure, HandlerOptions, On } from '../bus/types.js'
import { describeError, isModloopError, ModloopError } from '../errors.js'
import type { EventName } from '../events/catalog.js'
import type { ModApi, ModInfo } from './api.js'
import { buildApi, StateStore, type LogSink, type Provider } from './build-api.js'
import { capabilityErrors } from './capability-check.js'
import { findCycle } from './find-cycle.js'
import { keptDefaults } from './kept-defaults.js'
import { CapabilityStore } from './capabilities.js'
import type { ModDefinition, Teardown } from './define.js'

export type LoadStage = 'resolve' | 'import' | 'shape' | 'options' | 'register' | 'dependency'

export interface LoadedMod {
  name: string
  version?: string
  source?: string
  root?: string
  options: Readonly<Record<string, unknown>>
  dependsOn: readonly string[]
  status: 'loaded' | 'failed' | 'disposed'
  $: ModApi
  controller: AbortController
  teardown?: Teardown
  /** The definition it was registered from, so a failed reload can put it back. */
  def: ModDefinition
  /** The options as given, before the schema filled defaults: a reload parses them with the new schema. */
  given: unknown
  /** Its code came from a file modloop imported: stray errors of its work are attributed to it (handler-scope.ts). */
  attributed: boolean
}

export interface AddOptions {
  options?: unknown
  /** The file or package the mod came from, for messages and `mods list`. */
  source?: string
  root?: string
  /**
   * Its code was imported from a file (a user's or a plugin's mod), so the work its handlers start
   * is tracked and a stray error in it is reported against it (handler-scope.ts). Built-in mods,
   * modloop's own code, are not: tracking costs every promise of the process a hook.
   */
  attributed?: boolean
}

/** A call nothing in the host answered: a `$` method with no provider, or a mod's tool no tool.call handler served. */
export interface Unanswered {
  mod: string
  /** The event whose handler made the call, when one did. */
  event?: EventName
  /** The `$` method, as `ns.name`. */
  method: string
  message: string
}

export interface HostOptions {
  log?: LogSink
  /** Throw on the first load error instead of collecting it. */
  strict?: boolean
  /** What mods' `$.env` reads and writes (a test host's own HOME, …); default process.env. */
  env?: Record<string, string | undefined>
  /** How long a mod's `register` may take before the start goes on without it (default MODLOOP_REGISTER_BUDGET_MS, else 10 s). */
  registerBudgetMs?: number
}

const REGISTER_BUDGET_MS = 10_000

/**
 * Holds the loaded mods: registers them (phase one), binds them (phase two, when `$` starts to
 * work), and tears them down in reverse load order. Load errors are collected with their stage
 * so one bad mod never stops the others.
 */
export class ModHost {
  readonly bus = new Bus()
  readonly errors: ModloopError[] = []
  readonly failures: HandlerFailure[] = []
  /** Calls nothing answered, in order; the test kit fails a test on them. */
  readonly unanswered: Unanswered[] = []
  readonly state = new StateStore()
  /** The capabilities mods provide each other (and core looks up by name). */
  readonly capabilities = new CapabilityStore()
  /** Which mod provides each capability and reads each config key, from every definition seen (loaded or not). */
  private readonly known = { capabilities: new Map<string, string>(), configKeys: new Map<string, string>() }
  private readonly mods = new Map<string, LoadedMod>()
  private readonly providers = new Map<string, Provider>()
  private bound = false
  private readonly log: LogSink
  private readonly logTaps = new Set<LogSink>()
  private readonly strict: boolean
  private readonly env: Record<string, string | undefined> | undefined
  private readonly registerBudgetMs: number

  constructor(options: HostOptions = {}) {
    const sink = options.log ?? (() => {})
    this.log = (mod, level, text) => {
      sink(mod, level, text)
      for (const tap of this.logTaps) tap(mod, level, text)
    }
    this.strict = options.strict ?? false
    this.env = options.env
    const fromEnv = Number((options.env ?? process.env).MODLOOP_REGISTER_BUDGET_MS)
    this.registerBudgetMs = options.registerBudgetMs ?? (fromEnv > 0 ? fromEnv : REGISTER_BUDGET_MS)
    // The host is the one that knows its mods: it serves their listing itself.
    this.providers.set('session.mods', () => this.list().filter((m) => m.status === 'loaded').map((m): ModInfo => ({
      name: m.name, ...(m.def.description ? { description: m.def.description } : {}), ...(m.version ? { version: m.version } : {}), ...(m.source ? { source: m.source } : {}),
    })))
    this.bus.onFailure((f) => {
      this.failures.push(f)
      if (isModloopError(f.error, 'MODLOOP_ERR_NO_PROVIDER')) this.unanswered.push({ mod: f.mod, event: f.event, method: f.error.method ?? '', message: f.message })
      // The sink names the mod itself; the message starts with it too.
      this.log(f.mod, 'warn', f.message.startsWith(`${f.mod}: `) ? f.message.slice(f.mod.length + 2) : f.message)
    })
  }

  /** Hears every mod's log line as well, debug ones too, whatever the host's own sink keeps (the debug log). Answers its disposer. */
  tapLog(sink: LogSink): () => void {
    this.logTaps.add(sink)
    return () => this.logTaps.delete(sink)
  }

  /** Installs the functions behind `$` methods (e.g. 'tool.register'); later parts of core call this. */
  provide(providers: Record<string, Provider>): void {
    for (const [name, fn] of Object.entries(providers)) this.providers.set(name, fn)
  }

  get isBound(): boolean {
    return this.bound
  }

  list(): readonly LoadedMod[] {
    return [...this.mods.values()]
  }

  get(name: string): LoadedMod | undefined {
    return this.mods.get(name)
  }

  /** Records a load error (or throws it when strict). */
  fail(error: ModloopError): void {
    if (this.strict) throw error
    this.errors.push(error)
  }

  /** Phase one: validate options and run `register`. Returns false when the mod did not load. */
  async add(def: ModDefinition, add: AddOptions = {}): Promise<boolean> {
    const where = add.source ? ` (${add.source})` : ''
    if (this.mods.has(def.name) && this.mods.get(def.name)!.status !== 'disposed') {
      this.fail(new ModloopError('MODLOOP_ERR_MOD_DUPLICATE', `${def.name}: a mod of this name is already loaded from ${this.mods.get(def.name)!.source ?? 'the host'}${where}`, {
        mod: def.name, file: add.source, stage: 'register',
      }))
      return false
    }
    const options = this.parseOptions(def, add)
    if (!options) return false
    const controller = new AbortController()
    const loaded: LoadedMod = {
      name: def.name, version: def.version, source: add.source, root: add.root, options,
      dependsOn: def.dependsOn ?? [], status: 'loaded', controller, def, given: add.options, attributed: add.attributed ?? false,
      $: buildApi({
        mod: def.name, root: add.root, version: def.version, options, signal: controller.signal,
        isBound: () => this.bound, provider: (m) => this.providers.get(m), log: this.log, state: this.state, env: this.env,
        capabilities: this.capabilities, declared: def,
      }),
    }
    this.know(def)
    this.mods.set(def.name, loaded)
    try {
      const teardown = await withinBudget(runIn(loaded.attributed ? { mod: def.name, event: 'register' } : undefined, () => def.register(this.onFor(loaded), options as never, loaded.$)), this.registerBudgetMs, () => new ModloopError(
        'MODLOOP_ERR_MOD_REGISTER_TIMEOUT', `${def.name}: register did not return within ${this.registerBudgetMs} ms${where}; the start goes on without it`,
        { mod: def.name, file: add.source, stage: 'register' },
      ))
      if (typeof teardown === 'function') loaded.teardown = teardown
      return true
    } catch (err) {
      this.bus.disposeMod(def.name)
      this.mods.delete(def.name)
      // Its signal aborts, so a register still running can see it was given up on.
      controller.abort(err)
      this.fail(isModloopError(err, 'MODLOOP_ERR_MOD_REGISTER_TIMEOUT') ? err : new ModloopError('MODLOOP_ERR_MOD_REGISTER', `${def.name}: register failed${where}: ${describeError(err)}`, {
        mod: def.name, file: add.source, stage: 'register', cause: err,
      }))
      return false
    }
  }

  /**
   * Learns what a mod provides and reads without loading it (a built-in left out of the
   * distribution), so an error or warning can say which mod would answer.
   */
  know(def: Pick<ModDefinition, 'name' | 'provides' | 'configKeys'>): void {
    for (const name of def.provides ?? []) if (!this.known.capabilities.has(name)) this.known.capabilities.set(name, def.name)
    for (const key of Object.keys(def.configKeys ?? {})) if (!this.known.configKeys.has(key)) this.known.configKeys.set(key, def.name)
  }

  /** The mod that normally provides a capability, or reads a config key, as far as the host has seen. */
  usual(kind: 'capabilities' | 'configKeys', name: string): string | undefined {
    return this.known[kind].get(name)
  }

  /** The loaded mod that declares it provides a capability, if one does. */
  providerOf(capability: string): string | undefined {
    return this.list().find((m) => m.status === 'loaded' && (m.def.provides as readonly string[] | undefined)?.includes(capability))?.name
  }

  /** Phase two: check declared dependencies and capabilities, then let `$` work. */
  bind(): void {
    this.checkDependencies()
    this.checkCapabilities()
    this.bound = true
  }

  /** Removes one mod: its handlers become no-ops, its signal aborts, its teardown runs. */
  async unload(name: string): Promise<void> {
    const mod = this.mods.get(name)
    if (!mod || mod.status === 'disposed') return
    mod.status = 'disposed'
    this.bus.disposeMod(name)
    this.capabilities.dropOwner(name)
    mod.controller.abort(new ModloopError('MODLOOP_ERR_DISPOSED', `${name} was disposed`, { mod: name }))
    try {
      await mod.teardown?.()
    } catch (err) {
      this.log(name, 'error', `${name}: teardown failed: ${describeError(err)}`)
    }
  }

  /**
   * Replaces a loaded mod with a new definition of it, keeping its place in every event's chain
   * and its options. If the new one does not register, the last good one is registered again and
   * the error is returned (and recorded); the host goes on either way.
   */
  async reload(name: string, def: ModDefinition): Promise<ModloopError | undefined> {
    const old = this.mods.get(name)
    if (!old || old.status !== 'loaded') return new ModloopError('MODLOOP_ERR_MOD_REGISTER', `${name}: not loaded, so it cannot be reloaded`, { mod: name })
    const add: AddOptions = { options: old.given, source: old.source, root: old.root, attributed: old.attributed }
    const places = this.bus.followers(name)
    await this.unload(name)
    const errorsBefore = this.errors.length
    const keep = this.bus.keepPlaces(name, places)
    try {
      let ok: boolean
      try {
        ok = await this.add({ ...def, name }, add)
      } catch (err) {
        ok = false
        if (!(err instanceof ModloopError)) throw err
        this.errors.push(err)
      }
      if (ok) return undefined
      const error = this.errors[this.errors.length - 1] ?? new ModloopError('MODLOOP_ERR_MOD_REGISTER', `${name}: the new version did not load`, { mod: name })
      this.errors.splice(errorsBefore)
      await this.add(old.def, add)
      return error
    } finally {
      keep()
    }
  }

  /** Tears every mod down in reverse load order. */
  async close(): Promise<void> {
    for (const mod of [...this.mods.values()].reverse()) await this.unload(mod.name)
    this.bound = false
  }

  private parseOptions(def: ModDefinition, add: AddOptions): Record<string, unknown> | undefined {
    const raw = add.options ?? {}
    // Given none, a mod whose schema's defaults are kept starts from a copy of them, unbuilt (kept-defaults.ts).
    const kept = keptDefaults(def.options, raw)
    if (kept) return Object.freeze(kept)
    if (!def.options) {
      if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) return Object.freeze({ ...(raw as Record<string, unknown>) })
      this.fail(new ModloopError('MODLOOP_ERR_MOD_OPTIONS', `${def.name}: options must be an object`, { mod: def.name, file: add.source, stage: 'options' }))
      return undefined
    }
    const parsed = def.options.safeParse(raw)
    if (parsed.success) return Object.freeze(parsed.data as Record<string, unknown>)
    const issue = parsed.error.issues[0]!
    const field = issue.path.map(String).join('.')
    this.fail(new ModloopError('MODLOOP_ERR_MOD_OPTIONS', `${def.name}: option ${field ? `"${field}"` : '(root)'}: ${issue.message}${add.source ? ` (${add.source})` : ''}\n${z.prettifyError(parsed.error)}`, {
      mod: def.name, field, file: add.source, stage: 'options', cause: parsed.error,
    }))
    return undefined
  }

  private onFor(mod: LoadedMod): On {
    return ((event: never, a: unknown, b?: unknown, c?: unknown) => {
      if (mod.status === 'disposed') {
        throw new ModloopError('MODLOOP_ERR_DISPOSED', `${mod.name}: on("${String(event)}") after the mod was disposed`, { mod: mod.name })
      }
      const hasMatcher = typeof a === 'object' && a !== null
      const matcher = (hasMatcher ? a : undefined) as Matcher | undefined
      const handler = (hasMatcher ? b : a) as (...args: any[]) => any
      const options = (hasMatcher ? c : b) as HandlerOptions | undefined
      return this.bus.register(mod.name, mod.$, event, matcher, handler, options, mod.attributed)
    }) as unknown as On
  }

  private checkDependencies(): void {
    const live = new Map([...this.mods].filter(([, m]) => m.status === 'loaded'))
    for (const mod of live.values()) {
      const missing = mod.dependsOn.filter((d) => !live.has(d))
      if (missing.length > 0) {
        this.dropFor(mod, new ModloopError('MODLOOP_ERR_MOD_DEPENDENCY', `${mod.name}: depends on ${missing.map((m) => `"${m}"`).join(', ')}, which ${missing.length > 1 ? 'are' : 'is'} not loaded`, {
          mod: mod.name, file: mod.source, stage: 'dependency',
        }))
      }
    }
    const cycle = findCycle([...this.mods.values()].filter((m) => m.status === 'loaded'))
    if (cycle) {
      const error = new ModloopError('MODLOOP_ERR_MOD_CYCLE', `mods depend on each other in a cycle: ${cycle.join(' -> ')}`, { mod: cycle[0], stage: 'dependency' })
      for (const name of new Set(cycle)) this.dropFor(this.mods.get(name)!, error)
    }
  }

  // A mod whose required capability is missing is dropped, then the check runs again: its own
  // capabilities are gone too, which may leave another mod without one.
  private checkCapabilities(): void {
    for (;;) {
      const found = capabilityErrors(this.list().filter((m) => m.status === 'loaded'), this.known.capabilities)
      if (found.length === 0) return
      for (const { mod, error } of found) this.dropFor(this.mods.get(mod)!, error)
    }
  }

  private dropFor(mod: LoadedMod, error: ModloopError): void {
    if (mod.status !== 'loaded') return
    mod.status = 'failed'
    this.bus.disposeMod(mod.name)
    this.capabilities.dropOwner(mod.name)
    mod.controller.abort(error)
    this.fail(error)
  }
}

/**
 * Settles as `work` does, or rejects with `overrun()` once `ms` pass. The timer is not unref'd:
 * a register that never returns must reach its budget, not let the process drain and exit.
 */
async function withinBudget<T>(work: T | PromiseLike<T>, ms: number, overrun: () => Error): Promise<T> {
  if (typeof (work as { then?: unknown } | undefined)?.then !== 'function') return work as T
  let timer: NodeJS.Timeout | undefined
  try {
    return await Promise.race([work as PromiseLike<T>, new Promise<never>((_, reject) => { timer = setTimeout(() => reject(overrun()), ms) })])
  } finally {
    clearTimeout(timer)
  }
}
