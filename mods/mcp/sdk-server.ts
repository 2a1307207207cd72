import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import type { ShapeOutput, ZodRawShapeCompat } from '@modelcontextprotocol/sdk/server/zod-compat.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js'

/** An in-process tool: a name, a description, a zod shape for its input, and its handler. */
export interface SdkMcpToolDefinition<S extends ZodRawShapeCompat = ZodRawShapeCompat> {
  name: string
  description: string
  inputSchema: S
  handler: (args: ShapeOutput<S>, extra: unknown) => Promise<CallToolResult>
  /** `readOnlyHint: true` lets calls run concurrently with other read-only calls. */
  annotations?: ToolAnnotations
}

/** Defines a tool for `createSdkMcpServer` (the Agent SDK's `tool()`). A handler that throws becomes an error result. */
export function tool<S extends ZodRawShapeCompat>(
  name: string,
  description: string,
  inputSchema: S,
  handler: (args: ShapeOutput<S>, extra: unknown) => Promise<CallToolResult>,
  extras?: { annotations?: ToolAnnotations },
): SdkMcpToolDefinition<S> {
  return { name, description, inputSchema, handler, ...(extras?.annotations ? { annotations: extras.annotations } : {}) }
}

export interface CreateSdkMcpServerOptions {
  name: string
  version?: string
  instructions?: string
  tools?: SdkMcpToolDefinition<any>[]
}

/**
 * The server of a `{ type: 'sdk' }` config. Each connection gets its own MCP SDK `McpServer` on
 * the server end of an in-memory transport pair, so in-process tools speak the real protocol,
 * a restarted connection starts clean, and two sessions may use one config at once. The MCP SDK's
 * server half is loaded on first connect, not when modloop is imported.
 */
export class SdkServerInstance {
  private readonly servers = new Set<McpServer>()

  constructor(readonly options: CreateSdkMcpServerOptions) {}

  async connect(transport: Transport): Promise<void> {
    const { McpServer } = await import('@modelcontextprotocol/sdk/server/mcp.js')
    const { name, version = '1.0.0', instructions, tools = [] } = this.options
    const server = new McpServer({ name, version }, instructions ? { instructions } : undefined)
    for (const t of tools) {
      server.registerTool(t.name, { description: t.description, inputSchema: t.inputSchema, ...(t.annotations ? { annotations: t.annotations } : {}) }, t.handler as never)
    }
    this.servers.add(server)
    server.server.onclose = () => { this.servers.delete(server) }
    await server.connect(transport)
  }

  async close(): Promise<void> {
    await Promise.all([...this.servers].map((s) => s.close()))
  }
}

export interface McpSdkServerConfigWithInstance {
  type: 'sdk'
  name: string
  instance: SdkServerInstance
}

/** An in-process MCP server for `query({ options: { mcpServers: { [name]: server } } })`; its tools are `mcp__<name>__<tool>`. */
export function createSdkMcpServer(options: CreateSdkMcpServerOptions): McpSdkServerConfigWithInstance {
  return { type: 'sdk', name: options.name, instance: new SdkServerInstance(options) }
}
