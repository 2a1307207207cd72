import { resolve } from 'node:path'
import { isPluginDir } from '../runtime/loader/plugin.js'
import type { Values } from './command.js'
import { usageError } from './usage-error.js'

/**
 * `--plugin-dir DIR` (repeatable), as Claude Code takes it: each a plugin directory, loaded whole
 * like a `--mod DIR` naming it. A directory without `.claude-plugin/plugin.json` is bad usage.
 */
export function pluginDirSpecs(values: Values, cwd: string): string[] {
  // The Agent SDK's --plugin-dir-no-mcp names a plugin directory too (its MCP servers are not skipped).
  return (['plugin-dir', 'plugin-dir-no-mcp'] as const).flatMap((flag) => {
    const given = values[flag]
    const dirs = Array.isArray(given) ? given.map(String) : []
    return dirs.map((dir) => {
      const abs = resolve(cwd, dir)
      if (!isPluginDir(abs)) throw usageError(`--${flag} ${dir}: ${abs} holds no .claude-plugin/plugin.json`)
      return abs
    })
  })
}
