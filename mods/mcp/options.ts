import { z } from 'zod'
import { onFirstUse } from '../../core/on-first-use.js'
import { builtinOptions } from '../_shared/builtin-options.js'

/** What the mcp mod takes as options (a distribution's `['mcp', { … }]`). */
export const mcpOptions = builtinOptions('mcp', () => z.object({
  /** Servers of the modloop config (the config's `mcpServers`, passed here), by name. */
  servers: z.record(z.string(), z.unknown()).default({}),
  /**
   * How long session.start waits for servers before the first prompt goes on; servers still
   * connecting stay `pending` and register their tools when ready. Capped below the event's budget.
   */
  startupTimeoutMs: z.number().int().nonnegative().default(5_000),
  /** How long one server may take to connect and list its tools before it counts as failed (default: MCP_TIMEOUT, else 30 s). */
  connectTimeoutMs: z.number().int().positive().optional(),
  /**
   * Project servers (`.mcp.json`) run commands from the checkout, so they need a trusted workspace:
   * `modloop trust` (trusted.json under MODLOOP_HOME) or `--trust-workspace`. A non-interactive run
   * (`-p`, `query()`) shows no trust prompt and, like project hooks, treats the folder as trusted
   * unless this is false.
   */
  trustProjectServers: z.boolean().default(true),
  /** Where the user's `.claude.json` lives (default: CLAUDE_CONFIG_DIR, else the OS home). */
  home: z.string().optional(),
  /** The trust file (default: $MODLOOP_HOME/trusted.json, MODLOOP_HOME defaulting to ~/.modloop). */
  trustStore: z.string().optional(),
  /** The managed-policy directory, whose settings may restrict the servers (`allowedMcpServers`, `deniedMcpServers`); `false` reads none (default: the platform's). */
  managedDir: z.union([z.string(), z.literal(false)]).optional(),
  /**
   * Only the servers the launch names (`--mcp-config`, `query()`'s mcpServers), as if
   * `--strict-mcp-config` were given: Claude Code's minimal mode reads no `.mcp.json` or other scope.
   */
  launchServersOnly: z.boolean().default(false),
  /** Server names not to connect (reported as `disabled`). */
  disabled: z.array(z.string()).default([]),
}))
export type McpOptions = z.output<typeof mcpOptions>

/** How long a server may take to connect when no option says: MCP_TIMEOUT (ms), else 30 s. */
export function envConnectTimeoutMs(mcpTimeout: string | undefined): number {
  const ms = Number(mcpTimeout)
  return ms > 0 ? ms : 30_000
}

/** An in-process server: `instance` is connected to one end of an in-memory transport pair. */
export interface SdkServerInstance {
  connect(transport: unknown): Promise<void>
  close?(): Promise<void>
}

// Built on first use: only a run with some MCP server configured reads one.
const byType = onFirstUse(() => {
  const strings = z.record(z.string(), z.string())
  /** Milliseconds a tool call may take on this server (beats MCP_TOOL_TIMEOUT). */
  const timeout = z.number().int().positive().optional()
  /** Its tools' schemas always go to the model whole, never deferred behind tool search. */
  const alwaysLoad = z.boolean().optional()

  const stdioServer = z.looseObject({
    type: z.literal('stdio').optional(),
    command: z.string().min(1),
    args: z.array(z.string()).default([]),
    env: strings.default({}),
    cwd: z.string().optional(),
    timeout,
    alwaysLoad,
  })
  const remoteServer = <T extends 'http' | 'sse'>(type: T) => z.looseObject({
    type: z.literal(type),
    url: z.url({ protocol: /^https?$/ }),
    headers: strings.default({}),
    timeout,
    alwaysLoad,
  })
  const sdkServer = z.looseObject({
    type: z.literal('sdk'),
    name: z.string().optional(),
    instance: z.custom<SdkServerInstance>((v) => typeof (v as SdkServerInstance | null)?.connect === 'function', 'expected an MCP server instance (from createSdkMcpServer)'),
    timeout,
    alwaysLoad,
  })
  return { stdio: stdioServer, http: remoteServer('http'), sse: remoteServer('sse'), sdk: sdkServer }
})
type ServerSchemas = ReturnType<typeof byType>
export type ServerConfig = z.output<ServerSchemas[keyof ServerSchemas]>

/** Validates one server's config, picking the schema by `type` so an error names the right fields. */
export function parseServer(raw: unknown): { config: ServerConfig } | { error: string } {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { error: 'expected an object' }
  const type = (raw as { type?: unknown }).type ?? 'stdio'
  const schema = typeof type === 'string' ? byType()[type as keyof ServerSchemas] : undefined
  if (!schema) return { error: `unknown type ${JSON.stringify(type)} (expected stdio, http, sse or sdk)` }
  const parsed = schema.safeParse(raw)
  if (parsed.success) return { config: parsed.data }
  const issue = parsed.error.issues[0]!
  return { error: `${issue.path.length ? `"${issue.path.join('.')}": ` : ''}${issue.message}` }
}
