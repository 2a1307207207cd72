import { join } from 'node:path'

/**
 * A plugin's persistent data directory (`${CLAUDE_PLUGIN_DATA}`): `<config dir>/plugins/data/<id>/`,
 * the id with every character outside `[A-Za-z0-9_-]` made `-` (spec settings-hooks §1.7). A plugin
 * loaded from a directory is `name@inline` to Claude Code (spec mods §1.3), so its data lives in
 * `<name>-inline`; one the settings enabled from a marketplace is `name@marketplace`, so
 * `<name>-<marketplace>`: state a plugin keeps there is found under either runtime.
 */
export function pluginDataDir(configDir: string, plugin: { name: string; id?: string }): string {
  return join(configDir, 'plugins', 'data', (plugin.id ?? `${plugin.name}@inline`).replace(/[^A-Za-z0-9_-]/g, '-'))
}
