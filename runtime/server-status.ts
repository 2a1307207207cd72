import type { Session } from '../core/loop/session.js'
import type { McpServerStatus } from '../core/mod/session-capabilities.js'

/** What `Query.mcpServerStatus` answers, and the init message's `mcp_servers`. */
export function mcpServerStatus(session: Session): McpServerStatus[] {
  const statuses = session.host.capabilities.get('serverStatus')
  return typeof statuses === 'function' ? statuses().map((s) => ({ ...s })) : []
}
