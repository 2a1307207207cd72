import { resolve } from 'node:path'
import { describeError, isModloopError, ModloopError } from '../errors.js'
import type { ModDefinition } from '../mod/define.js'
import { ModHost } from '../mod/host.js'
import type { Model } from '../model/types.js'
import { installProviders } from './providers.js'
import { resolveModelName, type QueryOptions } from './options.js'
import { Session } from './session.js'
import type { Rebuilt } from '../session/rebuild.js'
import { refusalOf, SESSION_REFUSED_REF } from '../session/lock.js'
import { transcriptPath } from '../session/paths.js'
import { startProvenance, stopProvenance } from '../trace/session-trace.js'
import { ModReloader } from '../loader/reload.js'
import type { ResumedFrom, SessionStartInput } from '../events/types.js'
import type { ResumeState } from '../session/resume.js'
import { switchItself } from './model-switch.js'

const SESSION_END_BOUND_MS = 1_500

/**
 * Opens a session: loads the distribution (or uses the given host), adds this query's mods,
 * picks the model, installs the loop's `$` providers, binds the mods and raises session.start.
 */
export async function openSession(options: QueryOptions): Promise<Session> {
  const cwd = resolve(options.cwd ?? process.cwd())
  const log = options.log ?? warnToStderr
  // A resume that cannot load fails here, before any mod is loaded.
  const asksForSession = options.resume !== undefined || options.continue || options.forkSession || options.resumeSessionAt !== undefined || options.sessionId !== undefined
  const resumed = asksForSession ? await (await import('../session/resume.js')).loadResume(options, cwd) : undefined
  for (const warning of resumed?.warnings ?? []) log(warning)
  // A log of one's own hears mods' info lines too; the default only their warnings and errors.
  const quiet = options.log ? ['debug'] : ['debug', 'info']
  const host = options.host ?? new ModHost({ strict: options.strictMods, log: (mod, level, text) => { if (!quiet.includes(level)) log(`${mod}: ${text}`) } })
  const badFormat = options.outputFormat === undefined ? undefined : import('./output-format.js').then((m) => m.outputFormatError(options.outputFormat))
  let configModel: string | undefined
  // Picked first so the model client loads while the distribution does.
  const picked = pickModel(options, cwd).then((model) => ({ model, setupError: undefined }), unusableScript)
  picked.catch(() => undefined)
  const specs = [
    ...(options.mods ?? []).filter((m): m is string | [string, Record<string, unknown>] => typeof m === 'string' || Array.isArray(m)),
    ...pluginPaths(options, cwd),
  ]
  let unreadKeys: (() => string[]) | undefined
  if (!options.host && (!options.bare || specs.length > 0)) {
    const { loadDistribution, unreadKeyWarnings } = await import('../loader/index.js')
    // Bare: the named mods load against an empty distribution (built-in names still resolve).
    const dist = await loadDistribution({ cwd, configPath: options.config, bare: options.bare, configLabel: options.configLabel ?? 'config option', extraMods: specs, strict: options.strictMods, host })
    configModel = dist.config.model
    for (const warning of dist.warnings) log?.(warning)
    // Settings hooks of the config and of plugins, for the mod that runs them (shell-hooks).
    host.state.set('loader', { plugin: 'loader', key: 'hooks' }, dist.hooks)
    unreadKeys = () => unreadKeyWarnings(dist.needsMods, host)
  }
  for (const def of options.mods ?? []) {
    if (typeof def === 'object' && !Array.isArray(def)) await host.add(def as ModDefinition, { source: 'query() options' })
  }
  for (const warning of unreadKeys?.() ?? []) log(warning)
  for (const err of host.errors) log(`${err.code}: ${err.message}`)
  // A resumed session goes on with its own model unless one is given; either way, if it starts on another, that is a switch.
  const fresh = resolveModelName(options, configModel)
  const model = options.model ?? resumed?.rebuilt.model ?? fresh
  const startsOn = resumed?.rebuilt.model ? (options.model ? resumed.rebuilt.model : fresh) : model
  const permissionMode = options.permissionMode ?? restoredMode(resumed?.rebuilt.permissionMode)
  const { model: llm, setupError } = await picked
  const session = new Session(host, llm, { ...options, cwd, log, sessionId: resumed ? resumed.sessionId : options.sessionId, ...(permissionMode ? { permissionMode } : {}) }, startsOn)
  session.setupError = setupError ?? (await badFormat)
  if (resumed) restore(session, resumed.rebuilt)
  installProviders(session)
  startProvenance(session)
  if (!host.isBound) host.bind()
  const start: SessionStartInput = {
    cwd, ...surfaceFields(options), sessionId: session.id, source: resumed?.source ?? 'startup',
    transcriptPath: resumed?.source === 'resume' ? resumed.from.transcriptPath : transcriptPath(cwd, session.id, options.env),
    ...(resumed ? { resumedFrom: resumedFrom(resumed) } : {}),
  }
  await host.bus.emit('session.start', start)
  const refused = refusalOf(host.state.get(SESSION_REFUSED_REF).value, session.id)
  if (refused) {
    await closeSession(session, 'other', !options.host)
    throw refused
  }
  if (startsOn !== model) await switchItself(session, startsOn, model, 'resume')
  startReloads(session, start)
  session.started = true
  return session
}

/** The `plugins` option's directories, as absolute paths (a mod specifier names a plugin directory by its path). */
function pluginPaths(options: QueryOptions, cwd: string): string[] {
  return (options.plugins ?? []).map((p) => {
    if (p?.type !== 'local' || typeof p.path !== 'string') {
      throw new ModloopError('MODLOOP_ERR_USAGE', `query(): plugins: each entry must be { type: 'local', path }, got ${JSON.stringify(p)}`)
    }
    return resolve(cwd, p.path)
  })
}

/** The `log` option's default (options.ts): warnings and errors on stderr. */
function warnToStderr(line: string): void {
  process.stderr.write(`modloop: ${line}\n`)
}

/** session.start's `surface` and `isInteractive`, from the query's options. */
export function surfaceFields(options: QueryOptions): Pick<SessionStartInput, 'surface' | 'isInteractive'> {
  return { surface: options.surface ?? null, isInteractive: options.isInteractive ?? options.surface !== undefined }
}

/**
 * `/reload` is answered by core beneath every mod (it reaches the host, which no mod can); it is
 * listed with the commands mods registered (/help, supportedCommands, init) unless a mod took the
 * name. --watch-mods reloads changed mods between turns.
 */
function startReloads(session: Session, start: SessionStartInput): void {
  session.reloader = new ModReloader(session, start)
  if (!session.commands.has('reload')) {
    session.commands.set('reload', { name: 'reload', description: 'Re-import the mods loaded from files', argumentHint: '[mod…]', mod: 'modloop', kind: 'local' })
  }
  if (session.options.watchMods) session.reloader.watch()
}

function resumedFrom(resumed: ResumeState): ResumedFrom {
  const { lastActivityMs, carried } = resumed.rebuilt
  return { ...resumed.from, lastActivityMs, ...(carried ? { carried } : {}) }
}

/** A resumed session goes on in the mode it was in, except the two no one should inherit unawares (spec §5.3). */
function restoredMode(mode: string | undefined): string | undefined {
  return mode === 'plan' || mode === 'bypassPermissions' ? undefined : mode
}

/** A resumed session goes on from its history and its totals (spec: total_cost_usd continues). */
function restore(session: Session, rebuilt: Rebuilt): void {
  for (const m of rebuilt.messages) session.messages.push(m)
  session.totalCostUsd = rebuilt.totalCostUsd
  session.costBeforeQuery = rebuilt.totalCostUsd
  Object.assign(session.modelUsage, rebuilt.modelUsage)
  session.userTurns = rebuilt.userTurns
  session.deferred = rebuilt.deferred
}

async function pickModel(options: QueryOptions, cwd: string): Promise<Model> {
  if (options.modelProvider) return options.modelProvider
  const env = options.env ?? process.env
  const script = options.script ?? env.MODLOOP_SCRIPT
  if (script !== undefined) {
    const { loadScript } = await import('../model/script.js')
    const { createScriptedModel } = await import('../model/scripted.js')
    return createScriptedModel(await loadScript(typeof script === 'string' ? resolve(cwd, script) : script))
  }
  const { createAnthropicModel } = await import('../model/anthropic.js')
  const num = (v: string | undefined) => (v === undefined || v === '' ? undefined : Number(v))
  return createAnthropicModel({
    apiKey: env.ANTHROPIC_API_KEY, baseURL: env.ANTHROPIC_BASE_URL, env,
    retryBaseMs: num(env.MODLOOP_RETRY_BASE_MS), maxRetries: num(env.MODLOOP_MAX_RETRIES ?? env.CLAUDE_CODE_MAX_RETRIES),
  })
}

/**
 * A model script that cannot be read or does not parse is bad input, not a crash: the session
 * opens, and each turn ends `turn_setup_failed` with the error naming the file and field.
 */
function unusableScript(err: unknown): { model: Model; setupError: Error } {
  if (!isModloopError(err, 'MODLOOP_ERR_SCRIPT')) throw err
  return {
    model: { name: 'scripted', stream: () => { throw err } },
    setupError: err,
  }
}

/** Raises session.end (all handlers share one short wall-clock bound), then tears the mods down. */
export async function closeSession(session: Session, reason: 'other' | 'prompt_input_exit' | 'clear' = 'other', closeHost = true): Promise<void> {
  if (session.ended) return
  session.ended = true
  await raiseSessionEnd(session, reason)
  stopProvenance(session)
  session.reloader?.close()
  if (closeHost) await session.host.close()
}

/**
 * Raises session.end for the session's current id. All handlers together share one short
 * wall-clock bound, raised to the longest own-time budget a handler declared: a mod that runs
 * work with a budget of its own (settings SessionEnd hooks) says so at registration.
 */
export async function raiseSessionEnd(session: Session, reason: 'other' | 'prompt_input_exit' | 'clear'): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  const boundMs = Math.max(SESSION_END_BOUND_MS, ...session.host.bus.stack('session.end').map((s) => s.budgetMs))
  try {
    await Promise.race([
      session.host.bus.emit('session.end', { reason, sessionId: session.id }),
      new Promise((r) => { timer = setTimeout(r, boundMs) }),
    ])
  } catch (err) {
    session.options.log?.(`session.end failed: ${describeError(err)}`)
  } finally {
    clearTimeout(timer)
  }
}

export function assertPrompt(prompt: unknown): void {
  if (typeof prompt !== 'string' && !(prompt && typeof (prompt as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function')) {
    throw new ModloopError('MODLOOP_ERR_USAGE', 'query(): prompt must be a string or an async iterable of user messages')
  }
}
