import type { CommandRun } from '../command.js'
import { SCOPE_LABELS } from './files.js'
import { checkHealth } from './health.js'
import { configuredServers } from './servers.js'

/**
 * `modloop mcp get <name>`: one server in full (the nearest scope's, for a name set in several):
 * its scope, whether it connects, and its config as written, as Claude Code's `claude mcp get`.
 */
export const mcpGet: CommandRun = async ({ positionals, io }) => {
  const name = positionals[0]!
  const server = (await configuredServers(io)).servers.find((s) => s.name === name)
  if (!server) {
    io.stderr.write(`No MCP server named "${name}". Run \`modloop mcp add\` to add one.\n`)
    return 1
  }
  const health = await checkHealth(server, io)
  const r = server.raw as { type?: unknown; command?: unknown; args?: unknown; env?: unknown; url?: unknown; headers?: unknown }
  const lines = [`${name}:`, `  Scope: ${SCOPE_LABELS[server.scope]}`, `  Status: ${health.status}`]
  if (health.issue) lines.push(`  Issue: ${health.issue}`)
  if (typeof r.url === 'string') {
    lines.push(`  Type: ${String(r.type ?? 'http')}`, `  URL: ${r.url}`)
    if (isMap(r.headers)) lines.push('  Headers:', ...Object.entries(r.headers).map(([k, v]) => `    ${k}: ${String(v)}`))
  } else {
    lines.push(`  Type: ${String(r.type ?? 'stdio')}`, `  Command: ${String(r.command ?? '')}`, `  Args:${Array.isArray(r.args) && r.args.length > 0 ? ` ${r.args.map(String).join(' ')}` : ''}`)
    if (isMap(r.env)) lines.push('  Environment:', ...Object.entries(r.env).map(([k, v]) => `    ${k}=${String(v)}`))
  }
  lines.push('', `To remove this server, run: modloop mcp remove ${name} -s ${server.scope}`)
  io.stdout.write(`${lines.join('\n')}\n`)
  return 0
}

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
