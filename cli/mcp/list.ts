import type { CommandRun } from '../command.js'
import { checkHealth, targetOf } from './health.js'
import { configuredServers } from './servers.js'

/**
 * `modloop mcp list`: every configured server with whether it connects, as Claude Code's `claude
 * mcp list` prints it. The checks run at once, so the slowest server (bounded by MCP_TIMEOUT) sets
 * how long it takes; a project server turned off in settings is not listed.
 */
export const mcpList: CommandRun = async ({ io }) => {
  const servers = (await configuredServers(io)).servers.filter((s) => !s.rejected)
  if (servers.length === 0) {
    io.stdout.write('No MCP servers configured. Use `modloop mcp add` to add a server.\n')
    return 0
  }
  io.stdout.write('Checking MCP server health…\n\n')
  const health = await Promise.all(servers.map((s) => checkHealth(s, io)))
  const rows = servers.map((s, i) => `${s.name}: ${targetOf(s.raw)} - ${health[i]!.status}${health[i]!.issue ? ` — ${health[i]!.issue}` : ''}`)
  io.stdout.write(`${rows.join('\n')}\n`)
  return 0
}
