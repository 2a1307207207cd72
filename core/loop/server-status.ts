import type { Session } from './session.js'

export interface McpServerStatus { name: string; status: string; [field: string]: unknown }

declare module '../mod/capabilities.js' {
  interface Capabilities {
    /** The statuses of the session's MCP servers (the mod that connects them provides it); without it there are none. */
    serverStatus: () => readonly McpServerStatus[]
  }
}

/** What `Query.mcpServerStatus` answers, and the init message's `mcp_servers`. */
export function mcpServerStatus(session: Session): McpServerStatus[] {
  const statuses = session.host.capabilities.get('serverStatus')
  return typeof statuses === 'function' ? statuses().map((s) => ({ ...s })) : []
}
