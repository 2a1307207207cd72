import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { describeError } from '../../core/errors.js'
import type { CommandRun } from '../command.js'
import { pluginsDir, readInstalledPlugins, readKnownMarketplaces, SCOPES, splitPluginId, type KnownMarketplace } from '../../runtime/plugin-store/files.js'
import { readMarketplace } from '../../runtime/plugin-store/marketplace-manifest.js'
import { editSettingsMap, fail, ok, run, writeInstalled, writeKnown } from './store.js'

const describeSource = (m: KnownMarketplace): string => {
  const s = m.source
  if (s.source === 'directory') return `Folder (${String(s.path)})`
  if (s.source === 'github') return `GitHub (${String(s.repo)})`
  if (s.source === 'git') return `Git (${String(s.url)})`
  return `${s.source} (${m.installLocation})`
}

/** `modloop plugin marketplace list [--json]`: the marketplaces of `known_marketplaces.json`. */
export const marketplaceList: CommandRun = async ({ values, io }) => {
  const known = Object.entries(readKnownMarketplaces(io.env))
  if (values.json === true) {
    const rows = known.map(([name, m]) => ({ name, ...m.source, installLocation: m.installLocation }))
    io.stdout.write(`${JSON.stringify(rows, null, 2)}\n`)
    return 0
  }
  if (known.length === 0) {
    io.stdout.write('No marketplaces configured\n')
    return 0
  }
  io.stdout.write(`Configured marketplaces:\n\n${known.map(([name, m]) => `  ❯ ${name}\n    Source: ${describeSource(m)}\n`).join('\n')}\n`)
  return 0
}

/**
 * `modloop plugin marketplace remove <name>`: forgets it (its clone deleted), takes it out of the
 * settings' `extraKnownMarketplaces`, and uninstalls its plugins, as Claude Code does.
 */
export const marketplaceRemove: CommandRun = async ({ positionals, io }) => {
  const name = positionals[0]!
  const market = readKnownMarketplaces(io.env)[name]
  if (!market) return fail(io, `Failed to remove marketplace: Marketplace '${name}' not found`)
  await writeKnown(io.env, (known) => { delete known[name] })
  // Its clone and its plugins' installed copies; a folder marketplace is the user's own and stays.
  if (market.installLocation.startsWith(pluginsDir(io.env))) await rm(market.installLocation, { recursive: true, force: true })
  await rm(join(pluginsDir(io.env), 'cache', name), { recursive: true, force: true })
  const ids = Object.keys(readInstalledPlugins(io.env).plugins).filter((id) => splitPluginId(id).marketplace === name)
  await writeInstalled(io.env, (installed) => { for (const id of ids) delete installed.plugins[id] })
  for (const scope of SCOPES) {
    await editSettingsMap(io, scope, 'extraKnownMarketplaces', (map) => { delete map[name] }).catch(() => undefined)
    await editSettingsMap(io, scope, 'enabledPlugins', (map) => { for (const id of ids) delete map[id] }).catch(() => undefined)
  }
  ok(io, `Successfully removed marketplace: ${name}`)
  if (ids.length > 0) {
    io.stdout.write(`Also uninstalled ${ids.length} plugin${ids.length === 1 ? '' : 's'} from this marketplace:\n${ids.map((id) => `  ${id}\n`).join('')}`)
    io.stdout.write('To use a plugin again, add the marketplace back and reinstall the plugin.\n')
  }
  return 0
}

/** `modloop plugin marketplace update [name]`: pulls a cloned marketplace again (a folder is read in place) and checks its manifest. */
export const marketplaceUpdate: CommandRun = async ({ positionals, io }) => {
  const known = readKnownMarketplaces(io.env)
  const names = positionals[0] !== undefined ? [positionals[0]] : Object.keys(known)
  for (const name of names) {
    const market = known[name]
    if (!market) return fail(io, `Failed to update marketplace(s): Marketplace '${name}' not found. Available marketplaces: ${Object.keys(known).join(', ')}`)
    try {
      if (market.source.source !== 'directory') {
        await run('git', ['-C', market.installLocation, 'pull', '--ff-only', '--quiet'], { env: { ...io.env, GIT_TERMINAL_PROMPT: '0' } })
      }
      await readMarketplace(market.installLocation)
    } catch (err) {
      const stderr = (err as { stderr?: string }).stderr?.trim()
      return fail(io, `Failed to update marketplace(s): ${name}: ${stderr || describeError(err)}`)
    }
  }
  await writeKnown(io.env, (all) => { for (const name of names) all[name]!.lastUpdated = new Date().toISOString() })
  return positionals[0] !== undefined
    ? ok(io, `Successfully updated marketplace: ${names[0]}`)
    : ok(io, `Successfully updated ${names.length} marketplace${names.length === 1 ? '' : 's'}`)
}
