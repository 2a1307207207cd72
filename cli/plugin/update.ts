import { join } from 'node:path'
import { describeError } from '../../core/errors.js'
import type { CommandRun } from '../command.js'
import { readInstalledPlugins, recordApplies, splitPluginId } from '../../runtime/plugin-store/files.js'
import { scopeFor } from './enable.js'
import { copyFetched, fetchPlugin, findPlugin, type Fetched } from './install.js'
import { outcomeOf } from './outcome.js'
import { writeInstalled } from './store.js'

/**
 * `modloop plugin update <plugin> [--scope] [--json]`: copies the plugin again from the
 * marketplace as it is on disk (`marketplace update` pulls a cloned one first) when its version
 * differs from the installed one, into `cache/<marketplace>/<name>/<new version>`, and points the
 * scope's install record there, as Claude Code does; the older copy stays.
 */
export const update: CommandRun = async ({ values, positionals, io }) => {
  const given = positionals[0]!
  const report = outcomeOf(io, values, 'update')
  const failed = (why: string, code: string, fields: Record<string, unknown> = { plugin: given }) =>
    report.failed(`Failed to update plugin "${given}": `, why, code, fields)
  if (values.json !== true) io.stdout.write(`Checking for updates for plugin "${given}"…\n`)
  const installed = readInstalledPlugins(io.env).plugins
  const applies = (id: string) => (installed[id] ?? []).some((r) => recordApplies(r, io.cwd))
  const ids = (splitPluginId(given).marketplace !== undefined ? [given] : Object.keys(installed).filter((id) => splitPluginId(id).name === given)).filter(applies).sort()
  if (ids.length > 1) {
    io.stderr.write(`Plugin "${given}" is installed from more than one marketplace. Include the marketplace name to pick one: ${ids.map((id) => `\`modloop plugin update ${id}\``).join(' or ')}\n`)
    return 1
  }
  const id = ids[0]
  if (id === undefined) return failed(`Plugin "${given}" is not installed`, 'not_installed')
  const scope = scopeFor(io, id, values.scope)
  const record = installed[id]!.find((r) => r.scope === scope && recordApplies(r, io.cwd))
  if (!record) return failed(`Plugin "${given}" is not installed in ${scope} scope`, 'not_installed_at_scope', { plugin: given, scope })
  const found = await findPlugin(io, id).catch((err: unknown) => describeError(err))
  if (typeof found === 'string') return failed(found, 'not_found')
  const { name } = splitPluginId(id)
  if (values.json !== true && found.market.source.source === 'directory' && typeof found.entry.source === 'string') {
    io.stdout.write(`${name} is read from its folder, ${join(found.market.installLocation, found.entry.source)}: nothing to update. Edits there take effect at the next session start.\n`)
  }
  let fetched: Fetched
  try {
    fetched = await fetchPlugin(io, found)
  } catch (err) {
    return failed(describeError(err), 'error_validation')
  }
  try {
    const fields = { plugin: given, pluginId: id, scope }
    const versions = { oldVersion: record.version, newVersion: fetched.version }
    if (fetched.version === record.version) {
      return report.ok(`${name} is already at the latest version (${record.version}).`, fields, { updateOutcome: 'up_to_date', ...versions })
    }
    const copy = await copyFetched(io, id, fetched)
    const lastUpdated = new Date().toISOString()
    await writeInstalled(io.env, (all) => {
      all.plugins[id] = (all.plugins[id] ?? []).map((r) => (r.scope === scope && recordApplies(r, io.cwd) ? { ...r, ...copy, lastUpdated } : r))
    })
    return report.ok(`Plugin "${name}" updated from ${record.version} to ${fetched.version} for scope ${scope}. Restart to apply changes.`, fields, { updateOutcome: 'updated', ...versions })
  } finally {
    await fetched.done()
  }
}
