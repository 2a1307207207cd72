import type { UnreadKey } from './unread-keys.js'
import type { ModloopError } from '../../core/errors.js'
import type { ModHost } from '../../core/mod/host.js'
import type { ConfigFile, ModEntry } from './config-schema.js'
import type { Model } from '../../core/model/types.js'
import type { SessionStore } from '../../core/session/store.js'
import type { PluginReader } from './plugin.js'
import type { SettingsFileReader } from '../../hooks-runner/read-settings.js'

/**
 * What an entry point (the package's `query()`, the CLI, the test kit) hands the runtime, so that the runtime
 * itself imports no mod and not the package that contains it.
 */
export interface Builtins {
  /** The built-in mods by name, each a lazy import. */
  mods: Readonly<Record<string, () => Promise<unknown>>>
  /** The mods loaded when no config exists (and by `extends: 'modloop'`). */
  defaultDistribution: readonly ModEntry[]
  /** The public `modloop` namespace: mods and TS configs that import `modloop` get this very instance. */
  hostModule: () => Promise<Record<string, unknown>>
  /** Where sessions are kept (resume, continue, fork; each session's lock): the file store by default. */
  sessionStore?: SessionStore
  /** The model behind `script` / MODLOOP_SCRIPT (a file path or a script value), when the entry offers one. */
  scriptedModel?: (script: unknown, cwd: string) => Promise<Model>
  /** Reads a plugin directory (Claude Code's layout); without it a plugin directory is a load error. */
  readPlugin?: PluginReader
  /** Whether a folder is a trusted workspace (the permissions mod's trust store); without it none is. */
  workspaceTrusted?: (cwd: string, env: Readonly<Record<string, string | undefined>>) => Promise<boolean>
}

/** Where a specifier is resolved from: a directory, and what to call it in messages. */
export interface Origin {
  dir: string
  /** The config file, `--mod`, or `the default distribution`. */
  label: string
  file?: string
}

/** Settings hooks (event → matcher groups) and the file they came from; a later stage runs them. */
export interface HookSource {
  source: string
  hooks: Record<string, unknown[]>
  /** For a plugin's `hooks/hooks.json`: the plugin, its directory and its options (userConfig values). */
  plugin?: { name: string; root: string; options: Readonly<Record<string, unknown>>; id?: string }
}

/** A plugin directory the loader loaded: what mods read to take its commands, skills, agents and servers. */
export interface LoadedPlugin {
  name: string
  /** The plugin's directory (`${CLAUDE_PLUGIN_ROOT}`). */
  root: string
  version?: string
  /** Its userConfig values, after the config's options. */
  options: Readonly<Record<string, unknown>>
  /** `name@marketplace` for a plugin the settings enabled (`enabledPlugins`); absent for one loaded from a directory named. */
  id?: string
  /** Where its manifest puts its parts (absent: the default directories). */
  paths?: PluginPaths
}

/**
 * A plugin's component paths from its manifest, absolute and inside the plugin. For commands,
 * agents, skills and output styles a list replaces the default directory (Claude Code's rule; an
 * author keeps it by listing it); MCP servers add to `.mcp.json`. Each entry is a file or a directory.
 */
export interface PluginPaths {
  commands?: string[]
  agents?: string[]
  skills?: string[]
  outputStyles?: string[]
  /** MCP configs beside `.mcp.json`: a file to read, or servers given inline; `origin` names it in messages. */
  mcpServers?: { origin: string; file?: string; servers?: Record<string, unknown> }[]
}


/** One config of a distribution, in merge order (the furthest ancestor first). */
export interface Layer {
  /** The config file; undefined for the built-in default distribution and for `--mod`. */
  file?: string
  origin: Origin
  config: ConfigFile
  /** Top-level keys the loader's schema does not know: some mod's, by its `configKeys`. */
  extra?: Record<string, unknown>
}

/** One mod entry after the whole extends chain was merged. */
export interface ResolvedModEntry {
  spec: string
  options?: Record<string, unknown>
  /** The config that last set this entry. */
  from: string
}

/** A distribution with every extends merged in. */
export interface ResolvedConfig {
  /** The config files merged, the furthest ancestor first. */
  files: string[]
  mods: ResolvedModEntry[]
  hooks: HookSource[]
  model?: string
  permissions?: { allow?: string[]; deny?: string[]; ask?: string[]; defaultMode?: string; additionalDirectories?: string[] }
  mcpServers?: Record<string, unknown>
  compaction?: Record<string, unknown>
  env?: Record<string, string>
  /** Where sessions are kept (`{ postgres: URL }`); the entry point builds the store from it. */
  sessionStore?: { postgres: string }
}

export interface LoadOptions {
  cwd: string
  /** `--config`: a config file, a directory holding one, or a package name. */
  configPath?: string
  /** How errors name where `configPath` came from; default '--config'. */
  configLabel?: string
  /** Only `extraMods` load (built-in names still resolve): no config, given or found, and no default distribution. */
  bare?: boolean
  /** `--mod` specifiers (optionally with options), resolved from cwd and loaded after the config's mods. */
  extraMods?: readonly (string | [string, Record<string, unknown>])[]
  /** `--strict-mods`: the first load error throws. */
  strict?: boolean
  /**
   * Load the plugins the settings files enable (`enabledPlugins`), after the config's and `extraMods`:
   * the environment that locates `~/.claude`, and whether the workspace is trusted (asked only when
   * a project or local settings file enables one). Absent: none are read.
   */
  settingsPlugins?: { env: Readonly<Record<string, string | undefined>>; trusted: () => Promise<boolean>; sources?: readonly ('user' | 'project' | 'local')[]; reader?: SettingsFileReader }
  host?: ModHost
  /** The built-in mods, default distribution and public namespace, from the entry point. */
  builtins: Builtins
}

export interface Distribution {
  host: ModHost
  config: ResolvedConfig
  configFile?: string
  /** The config's own hooks (every layer) and each loaded plugin's hooks, in load order. */
  hooks: HookSource[]
  /** The plugin directories loaded, in load order (also the `loadedPlugins` capability). */
  plugins: LoadedPlugin[]
  /** Load errors of this call, each with its stage and file (also in host.errors). */
  errors: ModloopError[]
  /** Config keys that need a mod to mean anything; `unreadKeyWarnings` says which lack it. */
  needsMods: UnreadKey[]
  /** What loaded but looks wrong in the config (naming its file), for the caller to show. */
  warnings: string[]
}
