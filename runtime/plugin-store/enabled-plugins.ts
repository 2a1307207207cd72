import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { MARKETPLACE_FILE, marketplaceSchema } from './marketplace-manifest.js'
import { directSettingsReader, type SettingsFileReader } from '../../hooks-runner/read-settings.js'
import { enabledPluginsOf, readInstalledPlugins, readKnownMarketplaces, recordApplies, settingsFileOf, SCOPES, splitPluginId, type Env, type Scope } from './files.js'

export interface EnabledPlugin {
  /** `name@marketplace`, Claude Code's id for it (init's `plugins[].source`). */
  id: string
  root: string
}

export interface EnabledPluginsInput {
  cwd: string
  env: Env
  /** Whether the workspace is trusted (`modloop trust`, --trust-workspace): its settings files may enable plugins. Asked only when one does. */
  trusted: () => Promise<boolean>
  /** The settings files read (the Agent SDK's `settingSources`); all when absent. */
  sources?: readonly Scope[]
  /** Reads the settings files (default: from disk): the session's own reader, which its mods read them through too. */
  reader?: SettingsFileReader
}

/**
 * The plugins the settings files enable (`enabledPlugins: { "name@marketplace": true }`), user <
 * project < local, the later file winning an id, as Claude Code reads them; each resolved to its
 * directory. A cloned repository can only name plugins of marketplaces this user added, and its
 * settings enable one only in a trusted workspace or where the user installed it for this project
 * (a record in `installed_plugins.json`, which the repository cannot write). What cannot load is
 * a warning naming the file and the id.
 */
export async function enabledPlugins(input: EnabledPluginsInput): Promise<{ plugins: EnabledPlugin[]; warnings: string[] }> {
  const { cwd, env } = input
  const decided = new Map<string, { enabled: boolean; scope: Scope; file: string }>()
  const reader = input.reader ?? directSettingsReader
  // Started in the home folder, the project file is the user file: read once.
  const files = SCOPES.filter((s) => input.sources?.includes(s) ?? true).map((scope) => ({ scope, file: settingsFileOf(scope, env, cwd) }))
    .filter(({ scope, file }) => scope === 'user' || file !== settingsFileOf('user', env, cwd))
  const reads = await Promise.all(files.map(({ file }) => reader.read(file)))
  files.forEach(({ scope, file }, i) => {
    const read = reads[i]!
    const enabled = enabledPluginsOf(read.status === 'ok' ? read.json : {})
    for (const [id, on] of Object.entries(enabled)) if (typeof on === 'boolean') decided.set(id, { enabled: on, scope, file })
  })
  const warnings: string[] = []
  const plugins: EnabledPlugin[] = []
  if (![...decided.values()].some((d) => d.enabled)) return { plugins, warnings }
  const known = readKnownMarketplaces(env)
  const installed = readInstalledPlugins(env).plugins
  for (const [id, { enabled, scope, file }] of decided) {
    if (!enabled) continue
    const records = (installed[id] ?? []).filter((r) => recordApplies(r, cwd))
    if (scope !== 'user' && !records.some((r) => r.scope === scope) && !(await input.trusted())) {
      warnings.push(`${file}: enabledPlugins "${id}" is not loaded: this workspace is not trusted and the plugin was not installed for it (modloop plugin install ${id} --scope ${scope}, or modloop trust)`)
      continue
    }
    const root = rootOf(id, known, records)
    if (typeof root === 'string') plugins.push({ id, root })
    else warnings.push(`${file}: enabledPlugins "${id}" is not loaded: ${root.why}`)
  }
  return { plugins, warnings }
}

/**
 * Where an enabled plugin loads from. A directory marketplace's own plugins load in place, as in
 * Claude Code (an edit there applies at the next session); others from their installed copy.
 */
export function rootOf(id: string, known: ReturnType<typeof readKnownMarketplaces>, records: { installPath: string }[]): string | { why: string } {
  const { name, marketplace } = splitPluginId(id)
  const market = marketplace === undefined ? undefined : known[marketplace]
  if (!market) return { why: `no marketplace "${marketplace ?? ''}" is known (modloop plugin marketplace add <source>)` }
  const entry = readEntry(market.installLocation, name)
  if (market.source.source === 'directory' && typeof entry?.source === 'string') return join(market.installLocation, entry.source)
  const copy = records.find((r) => existsSync(r.installPath))
  if (copy) return copy.installPath
  if (typeof entry?.source === 'string') return join(market.installLocation, entry.source)
  return { why: entry ? 'it is not installed (modloop plugin install ' + id + ')' : `marketplace "${marketplace}" has no plugin "${name}"` }
}

function readEntry(location: string, name: string) {
  try {
    const parsed = marketplaceSchema().safeParse(JSON.parse(readFileSync(join(location, MARKETPLACE_FILE), 'utf8')))
    return parsed.success ? parsed.data.plugins.find((p) => p.name === name) : undefined
  } catch {
    return undefined
  }
}
