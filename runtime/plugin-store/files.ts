import { readFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'

/**
 * Claude Code's plugin layout under `~/.claude/plugins` (`$CLAUDE_CONFIG_DIR/plugins` when set),
 * shared with it so either tool sees what the other installed:
 * `known_marketplaces.json` (name → source, installLocation, lastUpdated), `installed_plugins.json`
 * (`{ version: 2, plugins: { "name@marketplace": [record per scope] } }`), `marketplaces/<name>`
 * (a cloned marketplace) and `cache/<marketplace>/<plugin>/<version>` (an installed copy).
 */
export type Env = Readonly<Record<string, string | undefined>>

export const claudeHome = (env: Env): string => env.CLAUDE_CONFIG_DIR || join(env.HOME || homedir(), '.claude')
export const pluginsDir = (env: Env): string => join(claudeHome(env), 'plugins')
export const knownMarketplacesFile = (env: Env): string => join(pluginsDir(env), 'known_marketplaces.json')
export const installedPluginsFile = (env: Env): string => join(pluginsDir(env), 'installed_plugins.json')

/** Where a marketplace came from, as `known_marketplaces.json` and `extraKnownMarketplaces` write it. */
export type MarketplaceSource =
  | { source: 'directory'; path: string }
  | { source: 'git'; url: string }
  | { source: 'github'; repo: string }
  | { source: string; [key: string]: unknown }

export interface KnownMarketplace {
  source: MarketplaceSource
  /** The folder holding `.claude-plugin/marketplace.json`: the directory itself, or its clone. */
  installLocation: string
  lastUpdated: string
}

export type Scope = 'user' | 'project' | 'local'
export const SCOPES: readonly Scope[] = ['user', 'project', 'local']

/** One install of a plugin; project and local installs name the project they belong to. */
export interface InstallRecord {
  scope: Scope
  installPath: string
  version: string
  installedAt: string
  lastUpdated: string
  projectPath?: string
  gitCommitSha?: string
}

export interface InstalledPlugins {
  version: 2
  plugins: Record<string, InstallRecord[]>
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** A JSON object file read at once; missing or unreadable is `{}`, since these files are a cache of what was added. */
function readObject(file: string): Record<string, unknown> {
  try {
    const json: unknown = JSON.parse(readFileSync(file, 'utf8'))
    return isObject(json) ? json : {}
  } catch {
    return {}
  }
}

/** A settings file's `enabledPlugins`, as written; `{}` when the file is missing, unreadable or has none. */
export function enabledPluginsIn(file: string): Record<string, unknown> {
  return enabledPluginsOf(readObject(file))
}

/** The `enabledPlugins` of a settings file already read (`{}` for one missing or unreadable). */
export function enabledPluginsOf(json: Record<string, unknown>): Record<string, unknown> {
  const enabled = json.enabledPlugins
  return isObject(enabled) ? enabled : {}
}

export function readKnownMarketplaces(env: Env): Record<string, KnownMarketplace> {
  const json = readObject(knownMarketplacesFile(env))
  return Object.fromEntries(Object.entries(json).filter(([, m]) => isObject(m) && typeof m.installLocation === 'string' && isObject(m.source))) as Record<string, KnownMarketplace>
}

export function readInstalledPlugins(env: Env): InstalledPlugins {
  const json = readObject(installedPluginsFile(env))
  const plugins = isObject(json.plugins) ? json.plugins : {}
  return { version: 2, plugins: Object.fromEntries(Object.entries(plugins).filter(([, r]) => Array.isArray(r))) as Record<string, InstallRecord[]> }
}

/** Whether an install record counts in a project: user installs everywhere, the others in their own project. */
export const recordApplies = (r: InstallRecord, project: string): boolean => r.scope === 'user' || r.projectPath === project

/** The settings file a scope's `enabledPlugins` and `extraKnownMarketplaces` live in. */
export function settingsFileOf(scope: Scope, env: Env, project: string): string {
  if (scope === 'user') return join(claudeHome(env), 'settings.json')
  return join(project, '.claude', scope === 'project' ? 'settings.json' : 'settings.local.json')
}

/** `name@marketplace` split; a bare name has no marketplace. */
export function splitPluginId(id: string): { name: string; marketplace?: string } {
  const at = id.lastIndexOf('@')
  return at > 0 ? { name: id.slice(0, at), marketplace: id.slice(at + 1) } : { name: id }
}
