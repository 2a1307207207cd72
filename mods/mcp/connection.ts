import { pathToFileURL } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { OnElicitation } from '../../runtime/sdk-options.js'
import { answerElicitation, type ElicitationHooks } from './elicitation.js'
import { ElicitRequestSchema, ErrorCode, ListRootsRequestSchema, McpError, ToolListChangedNotificationSchema, type GetPromptResult, type Prompt, type ReadResourceResult, type Resource, type Tool as RemoteTool } from '@modelcontextprotocol/sdk/types.js'
import { VERSION } from '../../core/version.js'
import type { ServerConfig } from './options.js'
import type { ServerEntry } from './sources.js'
import { openTransport } from './transport.js'
import { describeWithCause } from '../../core/errors.js'

export type { GetPromptResult, Prompt, ReadResourceResult, RemoteTool, Resource }
export type ServerStatus = 'connected' | 'failed' | 'pending' | 'disabled'

/** A tool call may run this long unless MCP_TOOL_TIMEOUT or the server's `timeout` says otherwise. */
export const DEFAULT_TOOL_TIMEOUT_MS = 100_000_000
const STDERR_LINES = 20

export interface ConnectionContext {
  cwd: string
  env: () => Record<string, string>
  envVar: (name: string) => string | undefined
  connectTimeoutMs: number
  /** The session's directories (its working directory first), which a server asks for as its roots. */
  roots(): Promise<string[]>
  /** The tool list is known: after each connect and after each `tools/list_changed`. */
  onTools(conn: ServerConnection): Promise<void>
  onStatus(conn: ServerConnection): void
  log(level: 'debug' | 'warn', text: string): void
  /** Who answers a server's request for the user's input, if anyone does (query()'s onElicitation). */
  elicitation(): Promise<OnElicitation | undefined>
  /** The session's Elicitation and ElicitationResult hooks, where a mod runs them. */
  elicitationHooks?: ElicitationHooks
}

interface Live {
  client: Client
  pid(): number | undefined
  /** Settles when the transport closed (for stdio: the process exited). */
  closed: Promise<void>
  isClosed: boolean
}

/**
 * One configured server: connects through the MCP SDK client, keeps its tool list current, calls
 * tools with a timeout, notices when the server goes away (status `failed`) and starts it again
 * on the next call. `close` ends the client and makes sure a child process is gone.
 */
export class ServerConnection {
  status: ServerStatus
  error?: string
  tools: RemoteTool[] = []
  /** The server said, when it last connected, that it offers resources (a call reconnects it if it went away since). */
  hasResources = false
  /** The prompts the server listed when it last connected (slash commands `/mcp__<server>__<prompt>`). */
  prompts: Prompt[] = []
  private live?: Live
  /** The client of the connect in flight, so `close` can end a server that is still starting. */
  private starting?: Live
  private opening?: Promise<void>
  private refreshing?: Promise<void>
  private again = false
  private isShut = false
  private readonly stderr: string[] = []

  constructor(readonly entry: ServerEntry & { config: ServerConfig }, private readonly ctx: ConnectionContext) {
    this.status = 'pending'
  }

  get name(): string {
    return this.entry.name
  }

  /** The name and version the server gave when it connected. */
  get serverInfo(): { name: string; version: string } | undefined {
    const info = this.live?.client.getServerVersion()
    return info ? { name: info.name, version: info.version } : undefined
  }

  /** Connects (or joins the connect in flight); never rejects: a failure is the `failed` status. */
  connect(): Promise<void> {
    this.opening ??= this.open().finally(() => { this.opening = undefined })
    return this.opening
  }

  async call(tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<unknown> {
    const timeout = this.entry.config.timeout ?? positive(this.ctx.envVar('MCP_TOOL_TIMEOUT')) ?? DEFAULT_TOOL_TIMEOUT_MS
    const result = await this.request(tool, timeout, signal, (client) => client.callTool({ name: tool, arguments: args }, undefined, { timeout, signal }))
    // A call that changed the tool list announced it before answering: let the next request see the new list.
    if (this.refreshing) await within(this.refreshing, 2_000)
    return result
  }


  /** Every resource the server lists (all its pages). */
  async listResources(signal?: AbortSignal): Promise<Resource[]> {
    const timeout = this.ctx.connectTimeoutMs
    return allPages(async (cursor) => {
      const page = await this.request('resources/list', timeout, signal, (client) => client.listResources(cursor ? { cursor } : undefined, { timeout, signal }))
      return [page.resources, page.nextCursor]
    })
  }

  /** One resource's contents, as the server sends them. */
  readResource(uri: string, signal?: AbortSignal): Promise<ReadResourceResult> {
    const timeout = this.entry.config.timeout ?? positive(this.ctx.envVar('MCP_TOOL_TIMEOUT')) ?? DEFAULT_TOOL_TIMEOUT_MS
    return this.request(`resources/read ${uri}`, timeout, signal, (client) => client.readResource({ uri }, { timeout, signal }))
  }

  /** One prompt filled in with its arguments, as the server sends it. */
  getPrompt(name: string, args: Record<string, string>, signal?: AbortSignal): Promise<GetPromptResult> {
    const timeout = this.entry.config.timeout ?? positive(this.ctx.envVar('MCP_TOOL_TIMEOUT')) ?? DEFAULT_TOOL_TIMEOUT_MS
    return this.request(`prompts/get ${name}`, timeout, signal, (client) => client.getPrompt({ name, arguments: args }, { timeout, signal }))
  }

  /**
   * One request on the live client, connecting first when the server went away; a failure comes
   * back as an error naming the server and `what` (an McpError keeps its code, as `cause`).
   */
  private async request<T>(what: string, timeout: number, signal: AbortSignal | undefined, send: (client: Client) => Promise<T>, isRetry = false): Promise<T> {
    if (!this.live || this.live.isClosed) {
      // A server that went away is started again by the next call that needs it.
      await this.connect()
      if (!this.live) throw new Error(`MCP server "${this.name}" is not available: ${this.error ?? 'it did not start'}`)
    }
    const live = this.live
    try {
      return await send(live.client)
    } catch (err) {
      if (signal?.aborted) throw err
      if (live.isClosed || (err instanceof McpError && err.code === ErrorCode.ConnectionClosed)) {
        throw new Error(`MCP server "${this.name}" stopped during the call to ${what}${this.stderrNote()}; it will be started again on next use`)
      }
      if (err instanceof McpError && err.code === ErrorCode.RequestTimeout) throw new Error(`MCP server "${this.name}": ${what} timed out after ${timeout} ms`)
      if (err instanceof McpError) throw new Error(`MCP server "${this.name}": ${what} failed: ${err.message}`, { cause: err })
      // The SDK client checks the answer's shape: a bad answer is the server's error, and the connection is fine.
      if (isSchemaError(err)) throw new Error(`MCP server "${this.name}" returned a malformed result for ${what}: ${schemaIssues(err)}`)
      // A streamable HTTP server that forgot the session (it restarted) answers 404 and ran nothing: the
      // MCP spec has the client start a new session, and Claude Code sends the request again on it.
      if (!isRetry && err instanceof StreamableHTTPError && err.code === 404) {
        this.ctx.log('debug', `${this.name}: the server no longer knows the session; starting a new one`)
        // Let go first, so closing the old session is not reported as the server failing.
        if (this.live === live) this.live = undefined
        await this.shutdown(live)
        return this.request(what, timeout, signal, send, true)
      }
      // Anything else is the transport (a refused connection, a reset): reconnect on the next call.
      await this.shutdown(live)
      this.setStatus('failed', `the connection broke: ${describe(err)}`)
      throw new Error(`MCP server "${this.name}" could not be reached (${describe(err)}); it will be reconnected on next use`)
    }
  }

  /** Closes the server and connects it afresh (Query.reconnectMcpServer, or switching it back on). */
  async restart(): Promise<void> {
    await this.close()
    this.isShut = false
    await this.connect()
  }

  /** Closes the server and reports it `disabled` (Query.toggleMcpServer off); `restart` brings it back. */
  async disable(): Promise<void> {
    await this.close()
    this.tools = []
    this.setStatus('disabled', 'switched off by toggleMcpServer')
  }

  /** Ends the client and, for a child process, makes sure it is gone. */
  async close(): Promise<void> {
    this.isShut = true
    const live = this.live
    this.live = undefined
    // Closing the client of a connect in flight makes that connect fail at once, not at its timeout.
    await Promise.all([live && this.shutdown(live), this.starting && this.shutdown(this.starting), this.opening])
  }

  private async open(): Promise<void> {
    if (this.isShut) return
    this.setStatus('pending')
    const { config } = this.entry
    const opened = openTransport(config, { cwd: this.ctx.cwd, env: this.ctx.env() })
    opened.onStderr((line) => {
      this.stderr.push(line)
      if (this.stderr.length > STDERR_LINES) this.stderr.shift()
      this.ctx.log('debug', `${this.name} (stderr): ${line}`)
    })
    // Servers such as the filesystem one work in the roots the client names, as Claude Code names them.
    // A request for the user's input goes to whoever answers it (elicitation.ts); with no one, the
    // server hears "cancel" and goes on, where a client without the capability would fail its call.
    const client = new Client({ name: 'modloop', version: VERSION }, { capabilities: { roots: {}, elicitation: { form: {}, url: {} } } })
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: (await this.ctx.roots()).map((dir) => ({ uri: pathToFileURL(dir).href })) }))
    client.setRequestHandler(ElicitRequestSchema, async (request, extra) => answerElicitation(this.name, request.params, extra, await this.ctx.elicitation(), (text) => this.ctx.log('warn', text), this.ctx.elicitationHooks))
    let markClosed!: () => void
    const live: Live = { client, pid: opened.pid, closed: new Promise<void>((r) => { markClosed = r }), isClosed: false }
    // Set before connecting: the SDK client chains its own close handling after this one.
    opened.transport.onclose = () => {
      live.isClosed = true
      markClosed()
      if (this.live === live && !this.isShut) {
        this.live = undefined
        this.setStatus('failed', `the server stopped${this.stderrNote()}`)
      }
    }
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => this.refresh(live))
    this.starting = live
    try {
      await Promise.all([client.connect(opened.transport, { timeout: this.ctx.connectTimeoutMs }), opened.serverReady])
      const offers = client.getServerCapabilities()
      // A server of resources only may not answer tools/list at all: that is no failure to connect.
      this.tools = await this.listTools(live).catch((err: unknown) => (offers?.tools === undefined ? [] : Promise.reject(err)))
      this.hasResources = offers?.resources !== undefined
      // Prompts are extras: a server that fails to list them still offers its tools.
      this.prompts = offers?.prompts === undefined ? [] : await this.listPrompts(live).catch((err: unknown) => {
        this.ctx.log('warn', `${this.name}: its prompts could not be listed: ${describe(err)}`)
        return []
      })
    } catch (err) {
      await this.shutdown(live)
      if (!this.isShut) this.setStatus('failed', `${this.startFailure(err)}${this.stderrNote()}`)
      return
    } finally {
      this.starting = undefined
    }
    if (this.isShut) return this.shutdown(live)
    this.live = live
    await this.ctx.onTools(this)
    this.setStatus('connected')
  }

  private refresh(live: Live): Promise<void> {
    if (this.refreshing) {
      this.again = true
      return this.refreshing
    }
    this.refreshing = (async () => {
      do {
        this.again = false
        try {
          this.tools = await this.listTools(live)
          await this.ctx.onTools(this)
        } catch (err) {
          this.ctx.log('warn', `${this.name}: the changed tool list could not be read: ${describe(err)}`)
        }
      } while (this.again && !live.isClosed)
    })().finally(() => { this.refreshing = undefined })
    return this.refreshing
  }

  private listTools(live: Live): Promise<RemoteTool[]> {
    return allPages(async (cursor) => {
      const page = await live.client.listTools(cursor ? { cursor } : undefined, { timeout: this.ctx.connectTimeoutMs })
      return [page.tools, page.nextCursor]
    })
  }

  private listPrompts(live: Live): Promise<Prompt[]> {
    return allPages(async (cursor) => {
      const page = await live.client.listPrompts(cursor ? { cursor } : undefined, { timeout: this.ctx.connectTimeoutMs })
      return [page.prompts, page.nextCursor]
    })
  }

  /** Closing ends a child's stdin; one that does not exit promptly is signalled, within session.end's short bound. */
  private async shutdown(live: Live): Promise<void> {
    // Read before closing: the SDK transport forgets its process as it closes.
    const pid = live.pid()
    const closing = live.client.close().catch(() => {})
    if (pid === undefined) return void (await within(closing, 1_000))
    // A SIGKILL cannot be refused, but its exit may take a moment to be seen on a busy machine.
    for (const [signal, waitMs] of [[undefined, 400], ['SIGTERM', 300], ['SIGKILL', 1_500]] as const) {
      if (signal) {
        try {
          process.kill(pid, signal)
        } catch {
          return // already gone
        }
      }
      if (await within(live.closed, waitMs)) return
    }
    this.ctx.log('warn', `${this.name}: the server process ${pid} did not exit`)
  }

  /** Why a connect failed, in words: the SDK's "Request timed out" and "Connection closed" say neither what nor why. */
  private startFailure(err: unknown): string {
    if (err instanceof McpError && err.code === ErrorCode.RequestTimeout) {
      return `it did not answer the MCP handshake within ${this.ctx.connectTimeoutMs} ms (MCP_TIMEOUT)`
    }
    if (err instanceof McpError && err.code === ErrorCode.ConnectionClosed && (this.entry.config.type ?? 'stdio') === 'stdio') return 'the server exited before it finished starting'
    return describe(err)
  }

  private setStatus(status: ServerStatus, error?: string): void {
    this.status = status
    this.error = error
    this.ctx.onStatus(this)
  }

  private stderrNote(): string {
    const last = this.stderr.at(-1)
    return last ? ` (stderr: ${last.slice(0, 300)})` : ''
  }
}

/** Whether `p` settled within `ms`. */
async function within(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined
  const settled = await Promise.race([p.then(() => true, () => true), new Promise<boolean>((r) => { timer = setTimeout(() => r(false), ms) })])
  clearTimeout(timer)
  return settled
}

/** The MCP SDK rejects a result that fails its schema with the zod error itself (zod 4 core names it `$ZodError`). */
function isSchemaError(err: unknown): err is { issues: { path: PropertyKey[]; message: string }[] } {
  return /^\$?ZodError$/.test(String((err as Error | null)?.name)) && Array.isArray((err as { issues?: unknown }).issues)
}

/** A zod error's issues on one line: `content: expected array`. */
function schemaIssues(err: { issues: { path: PropertyKey[]; message: string }[] }): string {
  return err.issues.slice(0, 3).map((i) => `${i.path.length ? `${i.path.map(String).join('.')}: ` : ''}${i.message}`).join('; ')
}

function positive(v: string | undefined): number | undefined {
  const n = Number(v)
  return v && Number.isFinite(n) && n > 0 ? n : undefined
}

function describe(err: unknown): string {
  const e = err as NodeJS.ErrnoException
  if (e?.code === 'ENOENT' && e.syscall?.startsWith('spawn')) return `the command was not found (${e.path ?? e.message})`
  // fetch says only "fetch failed": the reason (refused, unknown host, reset) is its cause.
  return describeWithCause(err)
}

/** Every item of a listing the server sends in pages, following its cursors. */
async function allPages<T>(page: (cursor: string | undefined) => Promise<[T[], string | undefined]>): Promise<T[]> {
  const items: T[] = []
  let cursor: string | undefined
  do {
    const [some, next] = await page(cursor)
    items.push(...some)
    cursor = next
  } while (cursor)
  return items
}
