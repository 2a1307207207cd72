import { envConnectTimeoutMs } from '../../mods/mcp/options.js'
import type { Io } from '../io.js'
import type { Configured } from './servers.js'

export const CONNECTED = '✔ Connected'
export const PENDING = '⏸ Pending approval (run `modloop` to approve)'
export const REJECTED = '✘ Rejected (see disabledMcpjsonServers in settings)'

export type Health = { status: string; issue?: string }

/**
 * Whether a server connects, found by connecting with the mcp mod's own client (MCP_TIMEOUT, else
 * 30 s, bounds the handshake) and closing again. A server the session would not start is not
 * connected to: a pending project server runs nothing until it is approved.
 */
export async function checkHealth(server: Configured, io: Io): Promise<Health> {
  const { entry } = server
  if (!entry) return { status: server.rejected ? REJECTED : PENDING }
  if (entry.error) return { status: '✘ Failed to connect', issue: entry.error }
  // Not trusted or not approved: a terminal session here asks about both (mods/terminal-ui).
  if (entry.disabled) return { status: PENDING }
  if (!entry.config) return { status: '✘ Failed to connect', issue: 'no config' }
  // The MCP SDK loads only when there is a server to check.
  const { ServerConnection } = await import('../../mods/mcp/connection.js')
  const env = Object.fromEntries(Object.entries(io.env).filter((kv): kv is [string, string] => kv[1] !== undefined))
  const connection = new ServerConnection({ ...entry, config: entry.config }, {
    cwd: io.cwd, env: () => env, envVar: (name) => io.env[name], connectTimeoutMs: envConnectTimeoutMs(io.env.MCP_TIMEOUT),
    roots: async () => [io.cwd], onTools: async () => {}, onStatus: () => {}, log: () => {}, elicitation: async () => undefined,
  })
  await connection.connect()
  const health = connection.status === 'connected' ? { status: CONNECTED } : { status: '✘ Failed to connect', issue: connection.error ?? 'it did not connect' }
  await connection.close()
  return health
}

/** What a server runs or where it connects, on one line, as Claude Code's `mcp list` shows it. */
export function targetOf(raw: unknown): string {
  const r = (typeof raw === 'object' && raw !== null ? raw : {}) as { type?: unknown; command?: unknown; args?: unknown; url?: unknown }
  if (typeof r.url === 'string') return `${r.url} (${String(r.type ?? 'http').toUpperCase()})`
  return `${String(r.command ?? '')} ${Array.isArray(r.args) ? r.args.map(String).join(' ') : ''}`
}
