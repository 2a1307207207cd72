import { describeError } from '../../core/errors.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import type { Wire } from './wire.js'

/**
 * The SDK application's in-process MCP servers (`createSdkMcpServer`), reached over the wire: the
 * mcp mod connects its client to a proxy as to any `{type: 'sdk'}` server, and each message it
 * sends goes to the SDK as an `mcp_message` control request, the answer to a request coming back
 * as the control response's `mcp_response`. Messages the SDK's server starts (notifications, its
 * own requests) arrive as `mcp_message` requests from the SDK and are handed to the client.
 */
export class McpProxies {
  private readonly ends = new Map<string, Transport>()

  constructor(private readonly wire: Wire, private readonly log: (line: string) => void) {}

  /** The server config for one SDK server name: what the mcp mod connects. */
  server(name: string): { type: 'sdk'; name: string; instance: { connect(transport: Transport): Promise<void> } } {
    return { type: 'sdk', name, instance: { connect: (transport) => this.connect(name, transport) } }
  }

  /** A message the SDK's server sent: to the client connected to its proxy. */
  async deliver(name: string, message: unknown): Promise<void> {
    const end = this.ends.get(name)
    if (!end) throw new Error(`no MCP server "${name}" is connected through this session (its servers: ${[...this.ends.keys()].join(', ') || 'none'})`)
    await end.send(message as JSONRPCMessage)
  }

  private async connect(name: string, end: Transport): Promise<void> {
    this.ends.set(name, end)
    end.onclose = () => {
      if (this.ends.get(name) === end) this.ends.delete(name)
    }
    end.onmessage = (message) => void this.forward(name, end, message)
    await end.start()
  }

  private async forward(name: string, end: Transport, message: JSONRPCMessage): Promise<void> {
    const isRequest = 'method' in message && 'id' in message && message.id !== undefined
    try {
      const answer = await this.wire.request({ subtype: 'mcp_message', server_name: name, message })
      // A notification or a response is acknowledged with a placeholder, which the client never sees.
      if (isRequest) await end.send(answer.mcp_response as JSONRPCMessage)
    } catch (err) {
      const text = `MCP server "${name}" of the SDK application could not be reached: ${describeError(err)}`
      if (!isRequest) return this.log(text)
      await end.send({ jsonrpc: '2.0', id: (message as { id: string | number }).id, error: { code: -32603, message: text } }).catch(() => undefined)
    }
  }
}
