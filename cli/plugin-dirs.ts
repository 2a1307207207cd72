import { delimiter, isAbsolute, resolve } from 'node:path'
import { isPluginDir } from '../runtime/loader/plugin.js'
import type { Values } from './command.js'
import { usageError } from './usage-error.js'

/**
 * `--plugin-dir DIR` (repeatable), as Claude Code takes it: each a plugin directory, loaded whole
 * like a `--mod DIR` naming it; then CLAUDE_CODE_PLUGIN_DIRS, absolute paths separated by `:`
 * (`;` on Windows), the same for an application that starts modloop and cannot pass it flags. A
 * directory without `.claude-plugin/plugin.json` is bad usage, naming the flag or the variable.
 */
export function pluginDirSpecs(values: Values, cwd: string, env: Record<string, string | undefined> = {}): string[] {
  // The Agent SDK's --plugin-dir-no-mcp names a plugin directory too (its MCP servers are not skipped).
  const flagged = (['plugin-dir', 'plugin-dir-no-mcp'] as const).flatMap((flag) => {
    const given = values[flag]
    const dirs = Array.isArray(given) ? given.map(String) : []
    return dirs.map((dir) => checked(resolve(cwd, dir), `--${flag} ${dir}`))
  })
  const listed = (env.CLAUDE_CODE_PLUGIN_DIRS ?? '').split(delimiter).filter((d) => d.trim() !== '').map((dir) => {
    if (!isAbsolute(dir)) throw usageError(`CLAUDE_CODE_PLUGIN_DIRS: ${dir} is not an absolute path`)
    return checked(dir, `CLAUDE_CODE_PLUGIN_DIRS: ${dir}`)
  })
  return [...flagged, ...listed.filter((d) => !flagged.includes(d))]
}

function checked(abs: string, named: string): string {
  if (!isPluginDir(abs)) throw usageError(`${named}: ${abs} holds no .claude-plugin/plugin.json`)
  return abs
}
