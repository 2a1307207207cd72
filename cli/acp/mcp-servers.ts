import type { McpServer } from '@agentclientprotocol/sdk'
import type { McpServerConfig } from '../../core/mod/session-capabilities.js'

/**
 * The MCP servers an editor hands a session, as query() options name them (the mcp mod validates
 * and connects them beside the project's own; a server of the same name replaces the project's).
 */
export function mcpServersOf(servers: readonly McpServer[]): Record<string, McpServerConfig> | undefined {
  if (servers.length === 0) return undefined
  const out: Record<string, McpServerConfig> = {}
  for (const s of servers) {
    if ('type' in s && (s.type === 'http' || s.type === 'sse')) {
      out[s.name] = { type: s.type, url: s.url, headers: Object.fromEntries(s.headers.map((h) => [h.name, h.value])) }
    } else if ('command' in s) {
      out[s.name] = { type: 'stdio', command: s.command, args: s.args, env: Object.fromEntries(s.env.map((v) => [v.name, v.value])) }
    }
  }
  return out
}
