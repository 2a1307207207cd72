import { resolve } from 'node:path'
import { ModloopError } from '../core/errors.js'
import type { ModDefinition } from '../core/mod/define.js'
import { ModHost } from '../core/mod/host.js'
import { installProviders } from './providers.js'
import { installWorktree } from './worktree.js'
import { resolveModelName, type QueryOptions } from './options.js'
import { resolveAlias } from '../core/model/aliases.js'
import { surfaceFields } from '../core/loop/session-options.js'
import { settingsPlugins } from './plugin-store/settings-plugins.js'
import { Session } from '../core/loop/session.js'
import type { Rebuilt } from '../core/session/store.js'
import { provideLoaded } from './loader/config-hooks.js'
import { SettingsFiles } from './settings-files.js'
import { assertModeOwned } from './permission-mode.js'
import { startProvenance } from './session-trace.js'
import { ModReloader } from './reload.js'
import type { ResumedFrom, SessionStartInput } from '../core/events/types.js'
import type { ResumeState } from './resume.js'
import { defaultModelOf, switchItself } from '../core/loop/model-switch.js'
import { pickModel, unusableScript } from './model-pick.js'
import { hold, locationOf } from './session-store.js'
import { optionWarnings, unreadOptionWarnings } from './option-names.js'
import { approverOf } from './approver.js'
import { initMessage } from './init-message.js'
import { SessionTasks } from './tasks.js'
import { debugLogOf } from './debug-log.js'
import { permissionModeOf } from '../core/permission-modes.js'
import './session-fields.js'

/**
 * Opens a session: loads the distribution (or uses the given host), adds this query's mods,
 * picks the model, installs the loop's `$` providers, binds the mods and raises session.start.
 * `waitsForInput` is false for a one-prompt run (a string prompt), which ends once it is answered.
 */
export async function openSession(options: QueryOptions, waitsForInput = true): Promise<Session> {
  const cwd = resolve(options.cwd ?? process.cwd())
  const said = options.log ?? (options.stderr ? toCallback(options.stderr) : warnToStderr)
  // --debug / --debug-file: every line, mods' debug ones too, also goes to the debug log.
  const debugLog = debugLogOf(options)
  const log = debugLog ? (line: string) => { debugLog.write('modloop', 'warn', line); said(line) } : said
  for (const warning of optionWarnings(options)) log(warning)
  // A resume that cannot load fails here, before any mod is loaded.
  const asksForSession = options.resume !== undefined || options.continue || options.forkSession || options.resumeSessionAt !== undefined || options.sessionId !== undefined
  const resumed = asksForSession ? await (await import('./resume.js')).loadResume(options, cwd) : undefined
  for (const warning of resumed?.warnings ?? []) log(warning)
  // A log of one's own hears mods' info lines too; the default only their warnings and errors.
  const quiet = options.log ? ['debug'] : ['debug', 'info']
  const host = options.host ?? new ModHost({ strict: options.strictMods, log: (mod, level, text) => { if (!quiet.includes(level)) said(`${mod}: ${text}`) } })
  // A host given (the terminal's) keeps its own sink, which drops debug lines: the debug log hears them all.
  debugLog?.tap(host)
  // The settings files, read once for the whole start (the plugins they enable, every mod's session.start).
  const settingsFiles = sessionSettingsFiles(host)
  const releaseSettings = settingsFiles.hold()
  try {
    return await openOn(options, waitsForInput, { cwd, log, said, debugLog, resumed, host, settingsFiles })
  } finally {
    releaseSettings()
  }
}

/** The settings files of the host's sessions: published once, for every mod that reads them. */
function sessionSettingsFiles(host: ModHost): SettingsFiles {
  const held = host.capabilities.get('settingsFiles')
  if (held) return held
  const files = new SettingsFiles()
  host.capabilities.set('runtime', 'settingsFiles', files)
  return files
}

interface Opening {
  cwd: string
  log: (line: string) => void
  said: (line: string) => void
  debugLog: ReturnType<typeof debugLogOf>
  resumed: ResumeState | undefined
  host: ModHost
  settingsFiles: SettingsFiles
}

async function openOn(options: QueryOptions, waitsForInput: boolean, { cwd, log, said, debugLog, resumed, host, settingsFiles }: Opening): Promise<Session> {
  const badFormat = options.outputFormat === undefined ? undefined : import('./output-format.js').then((m) => m.outputFormatError(options.outputFormat))
  let configModel: string | undefined
  // Picked first so the model client loads while the distribution does.
  // The settings' apiKeyHelper is asked for at the first request, when the session (and its mods) exist.
  const picked = pickModel(options, cwd, () => session && host.capabilities.get('apiKeyHelper')?.(session.root.id), () => session?.env, debugLog).then((model) => ({ model, setupError: undefined }), unusableScript)
  picked.catch(() => undefined)
  const specs = [
    ...(options.mods ?? []).filter((m): m is string | [string, Record<string, unknown>] => typeof m === 'string' || Array.isArray(m)),
    ...pluginPaths(options, cwd),
  ]
  let unreadKeys: (() => string[]) | undefined
  if (!options.host && (!options.bare || specs.length > 0)) {
    const { loadDistribution, unreadKeyWarnings } = await import('./loader/index.js')
    if (!options.builtins) throw new ModloopError('MODLOOP_ERR_USAGE', 'query(): no built-in set to load a distribution from; import query from the modloop package, or pass `host`')
    // Bare: the named mods load against an empty distribution (built-in names still resolve).
    const dist = await loadDistribution({ builtins: options.builtins, cwd, configPath: options.config, bare: options.bare, configLabel: options.configLabel ?? 'config option', extraMods: specs, strict: options.strictMods, host, settingsPlugins: settingsPlugins(options, cwd, settingsFiles) })
    configModel = dist.config.model
    for (const warning of dist.warnings) log?.(warning)
    // Settings hooks of the config and of plugins, for the mod that runs them (shell-hooks).
    provideLoaded(host, dist.hooks, dist.plugins)
    unreadKeys = () => unreadKeyWarnings(dist.needsMods, host)
  }
  for (const def of options.mods ?? []) {
    if (typeof def === 'object' && !Array.isArray(def)) await host.add(def as ModDefinition, { source: 'query() options' })
  }
  for (const warning of [...(unreadKeys?.() ?? []), ...unreadOptionWarnings(options, host)]) log(warning)
  try {
    assertModeOwned(host, options.permissionMode)
  } catch (err) {
    if (!options.host) await host.close()
    throw err
  }
  for (const err of host.errors) log(`${err.code}: ${err.message}`)
  const loggedErrors = host.errors.length
  // A resumed session goes on with its own model unless one is given; either way, if it starts on another, that is a switch.
  const fresh = resolveModelName(options, configModel)
  const model = options.model !== undefined ? fresh : resumed?.rebuilt.model ?? fresh
  const startsOn = resumed?.rebuilt.model ? (options.model ? resumed.rebuilt.model : fresh) : model
  // `manual` is Claude Code's other name for `default`; an unknown name is left to the mode's owner to refuse.
  const permissionMode = (options.permissionMode && (permissionModeOf(options.permissionMode) ?? options.permissionMode)) ?? restoredMode(resumed?.rebuilt.permissionMode)
  const { model: llm, setupError } = await picked
  const session: Session = new Session(host, llm, {
    ...options, cwd, log, sessionId: resumed ? resumed.sessionId : options.sessionId, ...(permissionMode ? { permissionMode } : {}),
    canUseTool: approverOf(options, () => session),
  }, startsOn)
  debugLog?.placeFor(session.id)
  session.tasks = new SessionTasks(session)
  session.waitsForInput = waitsForInput
  session.initMessage = () => initMessage(session)
  for (const [from, to] of Object.entries(options.toolAliases ?? {})) session.tools.redirect(from, to)
  session.setupError = setupError ?? (await badFormat)
  if (resumed) restore(session, resumed.rebuilt)
  installProviders(session)
  installWorktree(host)
  startProvenance(session)
  if (!host.isBound) host.bind()
  // Binding drops a mod whose dependency or required capability is missing: that is a load error to tell too.
  for (const err of host.errors.slice(loggedErrors)) log(`${err.code}: ${err.message}`)
  const start: SessionStartInput = {
    cwd, ...surfaceFields(session.options), waitsForInput, sessionId: session.id, source: resumed?.source ?? 'startup',
    transcriptPath: resumed?.source === 'resume' ? resumed.from.transcriptPath : locationOf(session),
    ...(resumed ? { resumedFrom: resumedFrom(resumed) } : {}),
  }
  try {
    await hold(session, start.transcriptPath)
  } catch (err) {
    // Another process took the session first (two starts with one id, two resumes at once): a session
    // that ran on beside it would lose what it did.
    if (!options.host) await host.close()
    throw err
  }
  await host.bus.emit('session.start', start)
  if (startsOn !== model) await switchItself(session, startsOn, model, 'resume')
  // No mod chose a model as the session started (a main agent's): the settings' env blocks, now set,
  // count in the named model's alias (ANTHROPIC_DEFAULT_*_MODEL, the legacy remap) as they do for
  // /model; and where nothing named a model, the settings may.
  else if (!resumed && session.model === model && options.model !== undefined) session.model = resolveAlias(options.model, session.env)
  else if (!resumed && options.model === undefined && configModel === undefined && session.model === model) session.model = defaultModelOf(session)
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

/** The Agent SDK's `stderr` option hears the lines modloop would write to stderr. */
function toCallback(stderr: (data: string) => void): (line: string) => void {
  return (line) => stderr(`modloop: ${line}\n`)
}

/**
 * `/reload` is answered by the runtime beneath every mod (it reaches the host, which no mod can); it
 * is listed with the commands mods registered (/help, supportedCommands, init) unless a mod took the
 * name. --watch-mods reloads changed mods between turns.
 */
function startReloads(session: Session, start: SessionStartInput): void {
  const reloader = (session.reloader = new ModReloader(session, start))
  if (!session.commands.has('reload') && !session.options.disableSlashCommands) {
    session.commands.set('reload', { name: 'reload', description: 'Re-import the mods loaded from files', argumentHint: '[mod...]', mod: 'modloop', kind: 'local', run: (args) => reloader.command(args) })
  }
  if (session.options.watchMods) session.reloader.watch()
}

function resumedFrom(resumed: ResumeState): ResumedFrom {
  const { lastActivityMs, carried, lastResponse, attachments } = resumed.rebuilt
  return { ...resumed.from, lastActivityMs, ...(carried ? { carried } : {}), ...(lastResponse ? { lastResponse } : {}), ...(attachments ? { attachments } : {}) }
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
  session.compactions.dropped = rebuilt.droppedTokens ?? 0
  if (rebuilt.linesChanged) Object.assign(session.linesChanged, rebuilt.linesChanged)
}

