import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { basename, join } from 'node:path'
import type { CommandRun } from '../command.js'
import { readPluginDir } from '../../mods/_shared/plugin-format/read-plugin.js'
import type { PluginDir } from '../../runtime/loader/plugin.js'
import { rootOf } from '../../runtime/plugin-store/enabled-plugins.js'
import { readInstalledPlugins, readKnownMarketplaces, recordApplies, splitPluginId } from '../../runtime/plugin-store/files.js'
import { readMarketplace } from '../../runtime/plugin-store/marketplace-manifest.js'

/** The names in a component's places: the manifest's list, else the default folder; `.md` files, or folders holding `SKILL.md`. */
function names(plugin: PluginDir, listed: string[] | undefined, folder: string, skills = false): string[] {
  const out: string[] = []
  for (const place of listed ?? [join(plugin.root, folder)]) {
    if (!existsSync(place)) continue
    if (!statSync(place).isDirectory()) {
      out.push(basename(place, '.md'))
      continue
    }
    for (const entry of readdirSync(place, { withFileTypes: true })) {
      if (skills ? entry.isDirectory() && existsSync(join(place, entry.name, 'SKILL.md')) : entry.isFile() && entry.name.endsWith('.md')) out.push(entry.name.replace(/\.md$/, ''))
    }
  }
  return out.sort()
}

/** The keys of `<root>/<file>`'s `key` object (or of the file itself when it has no such key), and of the manifest's extra configs. */
function serverNames(root: string, file: string, key: string, extra: { file?: string; servers?: Record<string, unknown> }[] = []): string[] {
  const read = (path: string) => {
    try {
      const json = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>
      return Object.keys((json[key] as Record<string, unknown> | undefined) ?? json)
    } catch {
      return []
    }
  }
  return [...read(join(root, file)), ...extra.flatMap((e) => (e.servers ? Object.keys(e.servers) : e.file ? read(e.file) : []))]
}

/**
 * `modloop plugin details <name>`: an installed plugin's component inventory, as Claude Code
 * lists it — commands and skills together as skills, agents, hook events, MCP and LSP servers.
 * (Claude Code adds its own token-cost estimate; modloop does not estimate.)
 */
export const details: CommandRun = async ({ positionals, io }) => {
  const given = positionals[0]!
  const installed = readInstalledPlugins(io.env).plugins
  const id = Object.keys(installed).find((k) => (k === given || splitPluginId(k).name === given) && installed[k]!.some((r) => recordApplies(r, io.cwd)))
  const known = readKnownMarketplaces(io.env)
  const root = id === undefined ? undefined : rootOf(id, known, installed[id]!.filter((r) => recordApplies(r, io.cwd)))
  if (id === undefined || typeof root !== 'string' || !existsSync(root)) {
    io.stdout.write(`Plugin "${given}" not found. Run \`modloop plugin list\` to see installed plugins, or pass --plugin-dir <path> to load one from disk.\n`)
    return 1
  }
  const plugin = await readPluginDir(root)
  const { name, marketplace } = splitPluginId(id)
  const market = known[marketplace!]
  const entry = market ? (await readMarketplace(market.installLocation).catch(() => undefined))?.plugins.find((p) => p.name === name) : undefined
  const description = entry?.description ?? plugin.manifest.description
  const version = plugin.manifest.version ?? installed[id]!.find((r) => recordApplies(r, io.cwd))!.version
  const row = (label: string, list: string[], note = '') => `  ${label} (${list.length})${list.length > 0 ? `  ${list.join(', ')}${note}` : ''}\n`
  const skills = [...names(plugin, plugin.paths.commands, 'commands'), ...names(plugin, plugin.paths.skills, 'skills', true)]
  const events = [...new Set(plugin.hooks.flatMap((h) => Object.keys(h.hooks)))]
  io.stdout.write([
    `${name} ${version}\n`, ...(description ? [`  Description: ${description}\n`] : []), `  Source: ${id}\n`, '\n', 'Component inventory\n',
    row('Skills', skills), row('Agents', names(plugin, plugin.paths.agents, 'agents')),
    row('Hooks', events, '  (harness-only — no model context cost)'),
    row('MCP servers', serverNames(root, '.mcp.json', 'mcpServers', plugin.paths.mcpServers), '  (tool schemas resolved at runtime; not counted)'),
    row('LSP servers', serverNames(root, '.lsp.json', 'lspServers')),
  ].join(''))
  return 0
}
