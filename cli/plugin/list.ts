import { join } from 'node:path'
import type { CommandRun } from '../command.js'
import { readInstalledPlugins, readKnownMarketplaces, recordApplies, splitPluginId } from '../../runtime/plugin-store/files.js'
import { readMarketplace } from '../../runtime/plugin-store/marketplace-manifest.js'
import { isEnabled } from './enable.js'

/**
 * `modloop plugin list [--json]`: the installs that count in this project, each with whether the
 * settings enable it; a directory marketplace's plugin shows the folder it loads from in place.
 */
export const list: CommandRun = async ({ values, io }) => {
  const known = readKnownMarketplaces(io.env)
  const rows = []
  for (const [id, records] of Object.entries(readInstalledPlugins(io.env).plugins)) {
    const { name, marketplace } = splitPluginId(id)
    const market = marketplace === undefined ? undefined : known[marketplace]
    let readFrom: string | undefined
    if (market?.source.source === 'directory') {
      const entry = (await readMarketplace(market.installLocation).catch(() => undefined))?.plugins.find((p) => p.name === name)
      if (typeof entry?.source === 'string') readFrom = join(market.installLocation, entry.source)
    }
    for (const r of records.filter((r) => recordApplies(r, io.cwd))) {
      rows.push({ id, version: r.version, scope: r.scope, enabled: isEnabled(io, id), installPath: r.installPath, ...(readFrom ? { readFromFolder: readFrom } : {}), installedAt: r.installedAt, lastUpdated: r.lastUpdated, ...(r.projectPath ? { projectPath: r.projectPath } : {}) })
    }
  }
  if (values.json === true) {
    io.stdout.write(`${JSON.stringify(rows, null, 2)}\n`)
    return 0
  }
  if (rows.length === 0) {
    io.stdout.write('No plugins installed. Use `modloop plugin install` to install a plugin.\n')
    return 0
  }
  const lines = rows.map((r) => [
    `  ❯ ${r.id}`, `    Version: ${r.version}`, ...(r.readFromFolder ? [`    Read from: ${r.readFromFolder}`] : []),
    `    Scope: ${r.scope}`, `    Status: ${r.enabled ? '✔ enabled' : '✘ disabled'}`, '',
  ].join('\n'))
  io.stdout.write(`Installed plugins:\n\n${lines.join('\n')}\n`)
  return 0
}
