import { existsSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import type { SettingsHooks } from './config-schema.js'
import { HooksError, type HooksWarning } from './errors.js'
import type { HookSource, HooksConfig, SourceKind } from './hooks-config.js'
import { defaultManagedDir, directSettingsReader, readSettingsArg, settingsHookKeys, type SettingsFileReader, type SettingsRead } from './read-settings.js'
import { resolveHooks, type HookEntries } from './resolve-hooks.js'

/** Hooks from outside the settings files: modloop's own config, a plugin's hooks.json, skill frontmatter. */
export interface ExtraHookSource {
  /** Names the source in records and errors: a file path or an id like `plugin:formatter@market`. */
  source: string
  /** The event map (for a plugin's hooks.json, its `hooks` key). */
  hooks: unknown
  /** Listing label; defaults to `Plugin Hooks`. */
  label?: string
  pluginRoot?: string
  pluginData?: string
  pluginOptions?: Record<string, string>
  /** Honour `once: true` (skill frontmatter). */
  honourOnce?: boolean
}

export interface LoadHookSourcesOptions {
  cwd: string
  home: string
  /** The project root where the session started: `.claude/settings.json` is read here, with no walk-up. */
  projectDir: string
  /** `--settings` values: file paths (relative to cwd) or inline JSON text. */
  settingsFiles?: readonly string[]
  extra?: readonly ExtraHookSource[]
  /** The managed-policy directory; defaults to the platform's; null skips managed settings. */
  managedDir?: string | null
  /** Defaults to `$CLAUDE_CONFIG_DIR`, else `<home>/.claude`. */
  configDir?: string
  /** `--setting-sources`: which of the user/project/local files to read (default all three). */
  settingSources?: readonly ('user' | 'project' | 'local')[]
  /** Read `.claude/settings.json` from the git root when the project dir has none (R6). */
  walkUpToGitRoot?: boolean
  env?: NodeJS.ProcessEnv
  /** Reads the settings files (default: from disk); a caller whose other parts read them too can hand its own. */
  reader?: SettingsFileReader
}

export interface LoadedFile {
  kind: SourceKind
  file: string
  present: boolean
}

export interface LoadedHookSources {
  config: HooksConfig
  /** Every settings file considered, in settings order, and whether it existed. */
  files: LoadedFile[]
  /** `disableAllHooks` after precedence; `managedOnly` = managed hooks still run. */
  disabled: { all: boolean; managedOnly: boolean; by?: string }
  errors: HooksError[]
  warnings: HooksWarning[]
}

const LABELS: Record<Exclude<SourceKind, 'extra'>, string> = {
  managed: 'Managed Settings', user: 'User Settings', project: 'Project Settings', local: 'Local Settings', cli: 'CLI --settings',
}
// Scalar keys such as disableAllHooks: the first kind in this list that sets one wins (spec §1.3).
const PRECEDENCE: readonly SourceKind[] = ['managed', 'cli', 'local', 'project', 'user']

interface Loaded { source: HookSource; settings: SettingsHooks }

/**
 * Reads every hook source in settings order — managed, user, project, local, `--settings`, then the
 * extras — and concatenates their hooks. A file that cannot be read or parsed is reported by name and
 * skipped; the other sources still load. Switch keys (`disableAllHooks`, `allowManagedHooksOnly`,
 * `strictPluginOnlyCustomization`) are applied here, so the config only holds hooks that may run.
 */
export async function loadHookSources(options: LoadHookSourcesOptions): Promise<LoadedHookSources> {
  const env = options.env ?? process.env
  const errors: HooksError[] = []
  const warnings: HooksWarning[] = []
  const files: LoadedFile[] = []
  const loaded: Loaded[] = []
  const wanted = new Set(options.settingSources ?? ['user', 'project', 'local'])
  const settingsSource = (kind: Exclude<SourceKind, 'extra'>, file: string): HookSource =>
    ({ kind, file, label: LABELS[kind], dedupClass: 'settings' })
  const take = (kind: Exclude<SourceKind, 'extra'>, file: string, read: SettingsRead) => {
    files.push({ kind, file, present: read.status !== 'absent' })
    if (read.status === 'error') errors.push(read.error)
    if (read.status !== 'ok') return
    errors.push(...read.errors)
    loaded.push({ source: settingsSource(kind, file), settings: read.settings })
  }

  const reader = options.reader ?? directSettingsReader
  const readFile = async (file: string) => settingsHookKeys(await reader.read(file), file)
  const managedDir = options.managedDir === undefined ? defaultManagedDir() : options.managedDir
  if (managedDir !== null) {
    for (const file of await reader.managedFiles(managedDir)) take('managed', file, await readFile(file))
  }
  const configDir = options.configDir ?? env.CLAUDE_CONFIG_DIR ?? join(options.home, '.claude')
  if (wanted.has('user')) {
    const file = join(configDir, 'settings.json')
    take('user', file, await readFile(file))
  }
  const gitRoot = findGitRoot(options.projectDir)
  if (wanted.has('project')) {
    let file = join(options.projectDir, '.claude', 'settings.json')
    const atRoot = gitRoot && gitRoot !== options.projectDir ? join(gitRoot, '.claude', 'settings.json') : undefined
    // Only a start below the git root has another place to look: no stat of the file otherwise.
    if (atRoot && !existsSync(file) && existsSync(atRoot)) {
      if (options.walkUpToGitRoot) file = atRoot
      else warnings.push({ code: 'HOOKS_WARN_NOT_LOADED', message: `${atRoot}: project settings at the git root are not read when starting in ${options.projectDir}; start there or enable walkUpToGitRoot`, file: atRoot })
    }
    take('project', file, await readFile(file))
  }
  if (wanted.has('local')) {
    // Read from the git root (CL 2.1.211), so a session started in a subdirectory still finds it.
    const file = join(gitRoot ?? options.projectDir, '.claude', 'settings.local.json')
    take('local', file, await readFile(file))
  }
  for (const arg of options.settingsFiles ?? []) {
    const { file, read } = await readSettingsArg(arg, options.cwd, reader)
    take('cli', file, settingsHookKeys(read, file))
  }

  const disabled = applySwitches(loaded, warnings)
  const entries: HookEntries[] = loaded.filter((l) => l.settings.hooks !== undefined).map((l) => ({ source: l.source, hooks: l.settings.hooks }))
  if (!disabled.all && !disabled.managedOnly) {
    for (const x of options.extra ?? []) entries.push({ source: extraSource(x), hooks: x.hooks })
  }
  const merged = (key: 'allowedHttpHookUrls' | 'httpHookAllowedEnvVars') => {
    const lists = loaded.map((l) => l.settings[key]).filter((v): v is string[] => v !== undefined)
    return lists.length ? lists.flat() : undefined
  }
  const resolved = resolveHooks(entries, { allowedHttpHookUrls: merged('allowedHttpHookUrls'), httpHookAllowedEnvVars: merged('httpHookAllowedEnvVars') })
  return { config: resolved.config, files, disabled, errors: [...errors, ...resolved.errors], warnings: [...warnings, ...resolved.warnings] }
}

function extraSource(x: ExtraHookSource): HookSource {
  return {
    kind: 'extra', file: x.source, label: x.label ?? 'Plugin Hooks', dedupClass: `extra:${x.source}`,
    pluginRoot: x.pluginRoot, pluginData: x.pluginData, pluginOptions: x.pluginOptions, honourOnce: x.honourOnce,
  }
}

/** Drops the hooks of sources that a switch key turns off; the dropped sources keep their other keys. */
function applySwitches(loaded: Loaded[], warnings: HooksWarning[]): LoadedHookSources['disabled'] {
  const winner = PRECEDENCE.map((kind) => loaded.filter((l) => l.source.kind === kind && l.settings.disableAllHooks !== undefined))
    .find((list) => list.length > 0)
  // Within one kind (managed main file + drop-ins, several --settings) the last one read wins.
  const decided = winner?.at(-1)
  const disabled = { all: false, managedOnly: false, by: decided?.source.file }
  const drop = (keep: (l: Loaded) => boolean, why: string) => {
    for (const l of loaded) {
      if (l.settings.hooks !== undefined && !keep(l)) {
        warnings.push({ code: 'HOOKS_WARN_DISABLED', message: `${l.source.file}: hooks not run (${why})`, file: l.source.file })
        delete l.settings.hooks
      }
    }
  }
  if (decided?.settings.disableAllHooks) {
    if (decided.source.kind === 'managed') disabled.all = true
    else disabled.managedOnly = true
    drop((l) => !disabled.all && l.source.kind === 'managed', `disableAllHooks in ${decided.source.file}`)
    return disabled
  }
  const managed = loaded.filter((l) => l.source.kind === 'managed')
  if (managed.some((l) => l.settings.allowManagedHooksOnly)) {
    disabled.managedOnly = true
    drop((l) => l.source.kind === 'managed', 'allowManagedHooksOnly in managed settings')
  } else if (managed.some((l) => { const s = l.settings.strictPluginOnlyCustomization; return s === true || (Array.isArray(s) && s.includes('hooks')) })) {
    drop((l) => l.source.kind === 'managed', 'strictPluginOnlyCustomization in managed settings')
  }
  return disabled
}

function findGitRoot(start: string): string | undefined {
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return dir
    if (dirname(dir) === dir) return undefined
  }
}
