import { randomUUID } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import type { ModDefinition } from '../../core/mod/define.js'
import type { SDKMessage } from '../../core/loop/messages.js'
import mcpMod from '../../mods/mcp/index.js'
import { mcpOptions } from '../../mods/mcp/options.js'
import { createFixtureServer } from './fixtures/server.mjs'

/** The stdio fixture server's script: the run's bundle of it (fixture-bundle.ts), else its source. */
export const FIXTURE = process.env.MODLOOP_TEST_MCP_FIXTURE ?? fileURLToPath(new URL('./fixtures/server.mjs', import.meta.url))

/** The fixture as a stdio server config. */
export const stdio = (extra: Record<string, unknown> = {}) => ({ command: process.execPath, args: [FIXTURE], ...extra })

/** The mcp mod with these options (a query's `mods` takes definitions without options). */
export function mcp(options: Record<string, unknown> = {}): ModDefinition {
  // The longest startup wait the mod allows: a fixture server started on a busy machine is slow to answer.
  const parsed = mcpOptions.parse({ startupTimeoutMs: 9_000, ...options })
  return { ...mcpMod, options: undefined, register: (on, _o, $) => mcpMod.register(on, parsed, $) } as ModDefinition
}

/** A temp folder standing in for the user's home and the project, so no real config is read. */
export async function tempDirs(): Promise<{ home: string; project: string; remove(): Promise<void> }> {
  const root = await mkdtemp(join(tmpdir(), 'modloop-mcp-'))
  const { mkdir } = await import('node:fs/promises')
  await mkdir(join(root, 'home'))
  await mkdir(join(root, 'project'))
  return { home: join(root, 'home'), project: join(root, 'project'), remove: () => rm(root, { recursive: true, force: true }) }
}

/**
 * The fixture's tools on 127.0.0.1, one MCP session per client: streamable HTTP at `/mcp`, and
 * the older SSE transport at `/sse` (it posts its messages to `/messages`).
 */
export async function startHttpFixture(port = 0): Promise<{ url: string; sseUrl: string; port: number; forget(): void; close(): Promise<void> }> {
  const sessions = new Map<string, StreamableHTTPServerTransport>()
  const forgotten: StreamableHTTPServerTransport[] = []
  const streams = new Map<string, SSEServerTransport>()
  const server = createServer((req, res) => {
    void (async () => {
      if (req.url === '/sse') {
        const sse = new SSEServerTransport('/messages', res)
        streams.set(sse.sessionId, sse)
        sse.onclose = () => { streams.delete(sse.sessionId) }
        return createFixtureServer().connect(sse)
      }
      if (req.url?.startsWith('/messages')) {
        const sse = streams.get(new URL(req.url, 'http://x').searchParams.get('sessionId') ?? '')
        return sse ? sse.handlePostMessage(req, res) : void res.writeHead(404).end()
      }
      const id = req.headers['mcp-session-id']
      let transport = typeof id === 'string' ? sessions.get(id) : undefined
      if (!transport) {
        if (typeof id === 'string') return void res.writeHead(404).end()
        const created: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (sid) => { sessions.set(sid, created) },
        })
        created.onclose = () => { if (created.sessionId) sessions.delete(created.sessionId) }
        await createFixtureServer().connect(created)
        transport = created
      }
      await transport.handleRequest(req, res)
    })().catch(() => { if (!res.headersSent) res.writeHead(500).end() })
  })
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r))
  const bound = (server.address() as AddressInfo).port
  const base = `http://127.0.0.1:${bound}`
  return {
    url: `${base}/mcp`,
    sseUrl: `${base}/sse`,
    port: bound,
    /** Forgets every streamable HTTP session, as a restarted server does: an old session id gets 404. */
    forget: () => {
      forgotten.push(...sessions.values())
      sessions.clear()
    },
    close: async () => {
      await Promise.all([...sessions.values(), ...forgotten, ...streams.values()].map((t) => t.close()))
      server.closeAllConnections()
      await new Promise<void>((r) => server.close(() => r()))
    },
  }
}

/** The tool_result blocks the model received in request `i`. */
export function toolResults(requests: { body: any }[], i: number): { tool_use_id: string; content: any; is_error?: boolean }[] {
  const last = requests[i]!.body.messages.at(-1)
  return (last.content as any[]).filter((b) => b.type === 'tool_result')
}

/** A tool_result's text, whether sent as a string or as text blocks. */
export function resultText(block: { content: any }): string {
  return typeof block.content === 'string' ? block.content : (block.content as { text?: string }[]).map((b) => b.text ?? '').join('')
}

export function initOf(messages: SDKMessage[]): any {
  return messages.find((m: any) => m.type === 'system' && m.subtype === 'init')
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}
