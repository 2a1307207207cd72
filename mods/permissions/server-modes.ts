import type { McpServerMode } from '../../core/mod/session-capabilities.js'
import { mcpToolName } from '../mcp/tool-name.js'
import type { Mode } from './types.js'

/**
 * The MCP servers' pinned modes (Query.setMcpPermissionModeOverride). A pin only narrows: a
 * server's call is decided under it where the session's mode would let the call run unasked
 * (bypassPermissions; auto, whose classifier a `default` pin leaves out), and nowhere else. A pin
 * is kept by the server's name, so it holds for a server that connects later.
 */
export function serverModes(known: () => readonly string[]) {
  const pins = new Map<string, McpServerMode>()
  return {
    set(server: string, mode: McpServerMode | null): void {
      if (mode === null) pins.delete(server)
      else pins.set(server, mode)
    },
    /** The mode a call of `tool` is decided under while the session is in `mode`. */
    modeFor(tool: string, mode: Mode): Mode {
      if ((mode !== 'bypassPermissions' && mode !== 'auto') || pins.size === 0 || !tool.startsWith('mcp__')) return mode
      return pins.get(serverOf(tool, [...pins.keys(), ...known()]) ?? '') ?? mode
    },
  }
}

/**
 * The server a tool's name (mcp__<server>__<tool>) comes from, of those named: of two that both
 * fit (`docs` and `docs__v2` for mcp__docs__v2__lookup), the longer.
 */
function serverOf(tool: string, servers: readonly string[]): string | undefined {
  let found: string | undefined
  let length = 0
  for (const server of servers) {
    const prefix = mcpToolName(server, '')
    if (tool.startsWith(prefix) && prefix.length > length) {
      found = server
      length = prefix.length
    }
  }
  return found
}
