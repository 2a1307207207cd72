import { cp, mkdtemp, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { describeError } from '../../core/errors.js'
import type { CommandRun } from '../command.js'
import type { Io } from '../io.js'
import { MANIFEST } from '../../runtime/loader/plugin.js'
import { readMarketplace, type MarketplaceEntry } from '../../runtime/plugin-store/marketplace-manifest.js'
import {
  pluginsDir, readInstalledPlugins, readKnownMarketplaces, recordApplies, splitPluginId, type InstallRecord, type KnownMarketplace, type Scope,
} from '../../runtime/plugin-store/files.js'
import { outcomeOf } from './outcome.js'
import { editSettingsMap, run, scopeOf, writeInstalled } from './store.js'

export interface Found { id: string; market: KnownMarketplace; entry: MarketplaceEntry }

/** A plugin by `name@marketplace`, or by its name in the first marketplace that lists it. */
export async function findPlugin(io: Io, given: string): Promise<Found | string> {
  const { name, marketplace } = splitPluginId(given)
  const known = readKnownMarketplaces(io.env)
  const names = marketplace !== undefined ? [marketplace] : Object.keys(known)
  for (const mp of names) {
    const market = known[mp]
    if (!market) continue
    const entry = (await readMarketplace(market.installLocation)).plugins.find((p) => p.name === name)
    if (entry) return { id: `${name}@${mp}`, market, entry }
  }
  return marketplace !== undefined
    ? `Plugin "${name}" not found in marketplace "${marketplace}". Your local copy may be out of date — try \`modloop plugin marketplace update ${marketplace}\`.`
    : `Plugin "${name}" not found in any configured marketplace.`
}

const sameInstall = (r: InstallRecord, scope: Scope, project: string) => r.scope === scope && (scope === 'user' || r.projectPath === project)

/**
 * `modloop plugin install|i <plugin>[@marketplace] [--scope user|project|local]`: copies the plugin
 * into `plugins/cache/<marketplace>/<name>/<version>`, records it in `installed_plugins.json` and
 * enables it in the scope's settings, as Claude Code does. A plugin kept in the marketplace (`./x`)
 * is copied from there; one that names a git repository (`{ source: "url" | "github" }`) is cloned.
 */
export const install: CommandRun = async ({ values, positionals, io }) => {
  const scope = scopeOf(values.scope, 'user')
  const given = positionals[0]!
  const report = outcomeOf(io, values, 'install')
  // Claude Code's progress text, the result line following on the same line.
  if (values.json !== true) io.stdout.write(`Installing plugin "${given}"...`)
  const failed = (why: string, code: string) => report.failed(`Failed to install plugin "${given}": `, why, code, { plugin: given, scope })
  let found: Found | string
  try {
    found = await findPlugin(io, given)
  } catch (err) {
    return failed(describeError(err), 'error_validation')
  }
  if (typeof found === 'string') return failed(found, 'not_found')
  const { id, market, entry } = found
  const records = readInstalledPlugins(io.env).plugins[id] ?? []
  const fields = { plugin: given, pluginId: id, scope }
  const already = records.find((r) => sameInstall(r, scope, io.cwd))
  if (already) {
    const inPlace = market.source.source === 'directory' && typeof entry.source === 'string' ? ` — it loads in place from ${join(market.installLocation, entry.source)}` : ''
    return report.ok(`Plugin "${id}" is already installed (scope: ${scope})${inPlace}`, fields, { installedVersion: already.version, availableVersion: await availableVersion(io, found, already.version) })
  }
  let record: InstallRecord
  try {
    record = await copyPlugin(io, found, scope)
  } catch (err) {
    return failed(describeError(err), 'error_validation')
  }
  await writeInstalled(io.env, (installed) => { installed.plugins[id] = [...(installed.plugins[id] ?? []), record] })
  await editSettingsMap(io, scope, 'enabledPlugins', (map) => { map[id] = true })
  return report.ok(`Successfully installed plugin: ${id} (scope: ${scope})`, fields)
}

/** The version the marketplace offers, read without cloning: its manifest in the marketplace, else the entry's, else `fallback`. */
async function availableVersion(io: Io, found: Found, fallback: string): Promise<string> {
  if (typeof found.entry.source !== 'string') return found.entry.version ?? fallback
  return fetchPlugin(io, found).then((f) => f.version, () => fallback)
}

/** A plugin's files ready to copy (its folder in the marketplace, or a clone of its repository) and the version its copy is named by. */
export interface Fetched { from: string; version: string; sha?: string; done: () => Promise<void> }

export async function fetchPlugin(io: Io, { market, entry }: Found): Promise<Fetched> {
  let from: string
  let temp: string | undefined
  if (typeof entry.source === 'string') {
    from = join(market.installLocation, entry.source)
  } else if (entry.source.source === 'url' || entry.source.source === 'github') {
    temp = await mkdtemp(join(pluginsDir(io.env), 'clone-'))
    const url = entry.source.source === 'url' ? String(entry.source.url) : `https://github.com/${String(entry.source.repo)}.git`
    await run('git', ['clone', '--depth', '1', '--quiet', url, temp], { env: { ...io.env, GIT_TERMINAL_PROMPT: '0' } })
      .catch(async (err: { stderr?: string }) => {
        await rm(temp!, { recursive: true, force: true })
        throw new Error(`Failed to clone ${url}: ${err.stderr?.trim() ?? String(err)}`)
      })
    from = temp
  } else {
    throw new Error(`its source ${JSON.stringify(entry.source)} is not one modloop installs (a "./" path in the marketplace, or a "url" or "github" repository)`)
  }
  const done = async () => { if (temp) await rm(temp, { recursive: true, force: true }) }
  try {
    const manifest = await readFile(join(from, MANIFEST), 'utf8').then((t) => JSON.parse(t) as { version?: unknown }, () => ({ version: undefined }))
    const sha = market.source.source === 'directory' ? undefined
      : (await run('git', ['-C', temp ?? market.installLocation, 'rev-parse', 'HEAD']).catch(() => undefined))?.stdout.trim()
    // Without a version, Claude Code names a git-sourced copy by its commit (12 digits), a folder's `unknown`.
    const version = typeof manifest.version === 'string' ? manifest.version : entry.version ?? sha?.slice(0, 12) ?? 'unknown'
    return { from, version, ...(sha ? { sha } : {}), done }
  } catch (err) {
    await done()
    throw err
  }
}

/** Copies what fetchPlugin got into `cache/<marketplace>/<name>/<version>`, the copy's path and commit. */
export async function copyFetched(io: Io, id: string, fetched: Fetched): Promise<Pick<InstallRecord, 'installPath' | 'version' | 'gitCommitSha'>> {
  const { name, marketplace } = splitPluginId(id)
  const installPath = join(pluginsDir(io.env), 'cache', marketplace!, name, fetched.version)
  await rm(installPath, { recursive: true, force: true })
  await cp(fetched.from, installPath, { recursive: true, filter: (src) => !/[\\/]\.git$/.test(src) })
  return { installPath, version: fetched.version, ...(fetched.sha ? { gitCommitSha: fetched.sha } : {}) }
}

async function copyPlugin(io: Io, found: Found, scope: Scope): Promise<InstallRecord> {
  const fetched = await fetchPlugin(io, found)
  try {
    const { installPath, version, gitCommitSha } = await copyFetched(io, found.id, fetched)
    const now = new Date().toISOString()
    return {
      scope, installPath, version, installedAt: now, lastUpdated: now,
      ...(scope === 'user' ? {} : { projectPath: io.cwd }), ...(gitCommitSha ? { gitCommitSha } : {}),
    }
  } finally {
    await fetched.done()
  }
}

/** The installed id a name means: itself when it has a marketplace, else the one installed plugin of that name. */
export function installedId(io: Io, given: string): string {
  if (splitPluginId(given).marketplace !== undefined) return given
  return Object.keys(readInstalledPlugins(io.env).plugins).find((id) => splitPluginId(id).name === given) ?? given
}

/**
 * `modloop plugin uninstall|remove <plugin> [--scope]`: drops the scope's install record and its
 * `enabledPlugins` entry; the cached copy goes when no install uses it any more.
 */
export const uninstall: CommandRun = async ({ values, positionals, io }) => {
  const scope = scopeOf(values.scope, 'user')
  const given = positionals[0]!
  const report = outcomeOf(io, values, 'uninstall')
  const id = installedId(io, given)
  const records = readInstalledPlugins(io.env).plugins[id] ?? []
  const record = records.find((r) => sameInstall(r, scope, io.cwd))
  const prefix = `Failed to uninstall plugin "${given}": `
  if (!record && records.length === 0) return report.failed(prefix, `Plugin "${given}" not found in installed plugins`, 'not_installed', { plugin: given, scope })
  if (!record) {
    // Claude Code points at the nearest scope it is installed in, this project's installs first.
    const here = records.filter((r) => recordApplies(r, io.cwd))
    const other = (['local', 'project', 'user'] as const).find((s) => (here.length > 0 ? here : records).some((r) => r.scope === s))!
    const why = `Plugin "${id}" is installed in ${other} scope, not ${scope}. Use --scope ${other} to uninstall.`
    return report.failed(prefix, why, 'not_installed_at_scope', { plugin: given, scope }, { installedScope: other })
  }
  const rest = records.filter((r) => r !== record)
  await writeInstalled(io.env, (installed) => {
    if (rest.length > 0) installed.plugins[id] = rest
    else delete installed.plugins[id]
  })
  await editSettingsMap(io, scope, 'enabledPlugins', (map) => { delete map[id] })
  if (!rest.some((r) => r.installPath === record.installPath)) await rm(record.installPath, { recursive: true, force: true })
  return report.ok(`Successfully uninstalled plugin: ${splitPluginId(id).name} (scope: ${scope})`, { plugin: given, pluginId: id, scope, keptData: false })
}
