import { existsSync } from 'node:fs'
import { pluginDataDir } from '../_shared/plugin-data.js'
import { homedir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { loadHookSources, type ExtraHookSource, type LoadedHookSources, type SettingsFileReader } from '../../hooks-runner/index.js'

/** Hooks from outside the settings files, as the loader hands them over: the config's and each plugin's. */
export interface ConfigHooks {
  source: string
  hooks: Record<string, unknown[]>
  /** How listings name the source (default: Modloop Config, or Plugin Hooks for a plugin's). */
  label?: string
  /** A plugin's hooks: the plugin's name, directory and options (its userConfig values). */
  plugin?: { name: string; root: string; options: Readonly<Record<string, unknown>>; id?: string }
}

export interface SourcesInput {
  cwd: string
  home?: string
  managedDir?: string | false
  settingSources?: readonly ('user' | 'project' | 'local')[]
  walkUpToGitRoot?: boolean
  /** `--settings` values: file paths or inline JSON. */
  settings?: readonly string[]
  /** The config's own hooks and each plugin's `hooks/hooks.json` hooks. */
  config?: readonly ConfigHooks[]
  env?: Record<string, string | undefined>
  /** Reads the settings files (the session's `settingsFiles`; default: from disk). */
  reader?: SettingsFileReader
}

/** `~/.claude`: under the home option, else CLAUDE_CONFIG_DIR, else the OS home. */
export function claudeConfigDir(home: string | undefined, env: Record<string, string | undefined>): string {
  if (home) return join(home, '.claude')
  return env.CLAUDE_CONFIG_DIR || join(homedir(), '.claude')
}

/**
 * Every hook source of a session, in settings order: managed, user, project, local, `--settings`,
 * then the modloop config's `hooks` and plugins' `hooks/hooks.json` (each plugin its own source,
 * with its directory, data directory and options for `${CLAUDE_PLUGIN_ROOT}`, `${CLAUDE_PLUGIN_DATA}`,
 * `CLAUDE_PLUGIN_OPTION_<KEY>` and `${user_config.KEY}`).
 */
export function loadSources(input: SourcesInput): Promise<LoadedHookSources> {
  const env = input.env ?? process.env
  const configDir = claudeConfigDir(input.home, env)
  return loadHookSources({
    cwd: input.cwd, projectDir: input.cwd, home: input.home ?? homedir(), configDir,
    managedDir: input.managedDir === false ? null : input.managedDir,
    settingSources: input.settingSources, walkUpToGitRoot: input.walkUpToGitRoot,
    settingsFiles: input.settings, extra: (input.config ?? []).map((c) => extraSource(c, configDir)), env: env as NodeJS.ProcessEnv,
    ...(input.reader ? { reader: input.reader } : {}),
  })
}

function extraSource(c: ConfigHooks, configDir: string): ExtraHookSource {
  const root = c.plugin?.root ?? pluginRootOf(c.source)
  if (!root) return { source: c.source, hooks: c.hooks, label: c.label ?? 'Modloop Config' }
  const name = c.plugin?.name ?? basename(root)
  return {
    source: c.source, hooks: c.hooks, label: 'Plugin Hooks', pluginRoot: root,
    pluginData: pluginDataDir(configDir, { name, id: c.plugin?.id }), pluginOptions: optionStrings(c.plugin?.options ?? {}),
  }
}


/** Option values as the environment and `${user_config.KEY}` carry them: text, lists joined by commas. */
function optionStrings(options: Readonly<Record<string, unknown>>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(options)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') out[key] = String(value)
    else if (Array.isArray(value) && value.every((v) => typeof v === 'string')) out[key] = value.join(',')
  }
  return out
}

/** A plugin's hooks come from `<root>/hooks/hooks.json`, with `<root>/.claude-plugin/plugin.json` beside. */
function pluginRootOf(file: string): string | undefined {
  if (basename(file) !== 'hooks.json' || basename(dirname(file)) !== 'hooks') return undefined
  const root = dirname(dirname(file))
  return existsSync(join(root, '.claude-plugin', 'plugin.json')) ? root : undefined
}
