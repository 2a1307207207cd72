import type { LoadedPlugin } from '../../runtime/loader/types.js'
import '../../runtime/loader/config-hooks.js'
import type { ModApi } from '../../core/mod/api.js'

/**
 * The plugin directories the loader loaded (its `loadedPlugins` capability), for the mods that
 * own their parts (commands, agents, MCP servers); such a mod declares `uses: { loadedPlugins: 'optional' }`.
 */
export function loadedPlugins($: ModApi): readonly LoadedPlugin[] {
  return $.capability.use('loadedPlugins') ?? []
}

/** `${CLAUDE_PLUGIN_ROOT}` (and `$CLAUDE_PLUGIN_ROOT`) replaced by the plugin's directory, in every string of a JSON value. */
export function withPluginRoot<T>(value: T, root: string): T {
  if (typeof value === 'string') return value.replace(/\$\{CLAUDE_PLUGIN_ROOT\}|\$CLAUDE_PLUGIN_ROOT\b/g, root) as T
  if (Array.isArray(value)) return value.map((v) => withPluginRoot(v, root)) as T
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withPluginRoot(v, root)])) as T
  }
  return value
}
