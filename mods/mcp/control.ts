import type { McpControl, McpSetServersResult } from '../../core/mod/session-capabilities.js'
import type { McpManager } from './manager.js'
import { parseServer } from './options.js'

/**
 * The `mcpControl` capability over the session's manager: reconnect or switch off one server, or
 * replace the servers set at run time. `manager` makes one on first use when the session started
 * with no servers at all.
 */
export function mcpControl(manager: () => Promise<McpManager>): McpControl {
  return {
    async reconnect(name) {
      const conn = (await manager()).connection(name)
      await conn.restart()
      if (conn.status !== 'connected') throw new Error(`MCP server "${name}" did not reconnect: ${conn.error ?? conn.status}`)
    },
    async toggle(name, enabled) {
      const m = await manager()
      const conn = m.connection(name)
      if (!enabled) {
        await conn.disable()
        await m.refreshTools(conn)
        return
      }
      await conn.restart()
      if (conn.status !== 'connected') throw new Error(`MCP server "${name}" did not start: ${conn.error ?? conn.status}`)
    },
    async readResource(server, uri) {
      const conn = (await manager()).connection(server)
      if (!conn.hasResources) throw new Error(`MCP server "${server}" does not offer resources`)
      const { contents } = await conn.readResource(uri)
      return { contents }
    },
    async setServers(servers) {
      const m = await manager()
      const result: McpSetServersResult = { added: [], removed: [], errors: {} }
      const wanted = new Map<string, ReturnType<typeof parseServer>>()
      for (const [name, raw] of Object.entries(servers ?? {})) wanted.set(name, parseServer(raw))
      for (const name of m.runtimeNames()) {
        if (wanted.has(name)) continue
        await m.remove(name)
        result.removed.push(name)
      }
      for (const [name, parsed] of wanted) {
        if ('error' in parsed) {
          result.errors[name] = parsed.error
          continue
        }
        const conn = await m.add({ name, scope: 'query', origin: 'setMcpServers', config: parsed.config })
        result.added.push(name)
        if (conn.status !== 'connected') result.errors[name] = conn.error ?? conn.status
      }
      return result
    },
  }
}
