import { resolve } from 'node:path'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { FetchLike, Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import { proxyFor } from '../../runtime/model/proxy-env.js'
import type { ServerConfig } from './options.js'

export interface Opened {
  transport: Transport
  /** The stdio server's process id, once started. */
  pid(): number | undefined
  /** Called with each line the server writes to stderr. */
  onStderr(listener: (line: string) => void): void
  /** An in-process server's end: settles once it listens (a failure there fails the connect). */
  serverReady?: Promise<void>
}

/** The MCP SDK transport for one server config: a child process, streamable HTTP, SSE, or an in-memory pair. */
export function openTransport(config: ServerConfig, ctx: { cwd: string; env: Record<string, string> }): Opened {
  const none = { pid: () => undefined, onStderr: () => {} }
  switch (config.type) {
    case 'http':
      return { ...none, transport: new StreamableHTTPClientTransport(new URL(config.url), { requestInit: { headers: config.headers }, fetch: fetchFor(ctx.env) }) }
    case 'sse':
      return { ...none, transport: new SSEClientTransport(new URL(config.url), { requestInit: { headers: config.headers }, fetch: fetchFor(ctx.env) }) }
    case 'sdk': {
      const [client, server] = InMemoryTransport.createLinkedPair()
      // The pair queues messages until each end starts, so the two ends may connect in any order.
      return { ...none, transport: client, serverReady: config.instance.connect(server) }
    }
    default: {
      const transport = new StdioClientTransport({
        command: config.command, args: config.args, cwd: resolve(ctx.cwd, config.cwd ?? '.'),
        env: { ...ctx.env, ...config.env }, stderr: 'pipe',
      })
      // The SDK forgets its child as it closes, and a client whose handshake fails closes the
      // transport itself without waiting for the child to exit: remember the pid so it can be ended.
      let started: number | undefined
      const start = transport.start.bind(transport)
      transport.start = async () => {
        await start()
        started = transport.pid ?? undefined
      }
      return {
        transport,
        pid: () => transport.pid ?? started,
        onStderr: (listener) => {
          let partial = ''
          transport.stderr?.on('data', (chunk: Buffer) => {
            const lines = (partial + chunk.toString('utf8')).split('\n')
            partial = lines.pop() ?? ''
            for (const line of lines) if (line.trim()) listener(line.trimEnd())
          })
        },
      }
    }
  }
}

/**
 * The fetch an HTTP or SSE server is reached with (the SSE stream too: its EventSource takes the
 * transport's fetch): through the proxy the session's environment names for each URL, under
 * NO_PROXY, as Claude Code connects to these servers; Node's fetch when no proxy covers it.
 */
function fetchFor(env: Record<string, string>): FetchLike {
  return async (input, init = {}) => {
    const url = new URL(input)
    const proxy = proxyFor(url, env)
    return proxy ? (await import('../../runtime/model/proxied-fetch.js')).proxiedFetch(url, init, proxy) : fetch(input, init)
  }
}
