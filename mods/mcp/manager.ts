import type { ToolRegistration } from '../../core/mod/contracts.js'
import type { ModApi } from '../../core/mod/api.js'
import type { ToolContext, ToolOutput } from '../../core/tools/tool.js'
import { ServerConnection, type RemoteTool, type ServerStatus } from './connection.js'
import type { ServerEntry } from './sources.js'
import { outputLimit, toToolOutput } from './tool-result.js'
import { registerResourceTools } from './resources.js'
import { syncPrompts, type PromptCommand } from './prompts.js'
import { mcpToolName as toolName } from './tool-name.js'
import type { OnElicitation } from '../../runtime/sdk-options.js'
import { launchFlags } from '../_shared/launch-flags.js'
import { describeError } from '../../core/errors.js'
import { extensionOf, toolResultFile, toolResultsDirOf } from '../_shared/session-dir.js'
import { sessionDirectories } from '../_shared/allowed-paths.js'
import { mkdir, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { subprocessEnv } from '../../hooks-runner/scrub-env.js'

const MAX_DESCRIPTION = 2_048

/** A server as `init` and `/mcp` report it. */
export interface ServerReport {
  name: string
  status: ServerStatus
  scope: ServerEntry['scope']
  /** Where the definition came from, in the Agent SDK's words (see {@link sourceOf}). */
  source: string
  error?: string
  /** By their model-facing name; `remote` is the server's own, `annotations` its hints that are set, in the Agent SDK's words. */
  tools: { name: string; remote: string; isReadOnly: boolean; annotations: ToolHints }[]
}

type ToolHints = { readOnly?: true; destructive?: true; openWorld?: true }

function hintsOf(tool: RemoteTool): ToolHints {
  const a = tool.annotations
  return { ...(a?.readOnlyHint === true ? { readOnly: true } : {}), ...(a?.destructiveHint === true ? { destructive: true } : {}), ...(a?.openWorldHint === true ? { openWorld: true } : {}) }
}

/**
 * The servers of one session: connects them all at once, registers each server's tools as
 * `mcp__<server>__<tool>` when its list is known (and again, or unregistered, when it changes),
 * and reports every server's status (the mod provides it as the `serverStatus` capability).
 */
export class McpManager {
  readonly connections: ServerConnection[] = []
  private readonly reports: ServerReport[] = []
  /** Model-facing tool name → the server that owns it and the server's own name for it. */
  private readonly owners = new Map<string, { server: string; remote: string; alwaysLoad: boolean }>()
  private isClosed = false
  /** Servers setMcpServers added: the next call replaces them. */
  private readonly added = new Set<string>()
  /** ListMcpResourcesTool and ReadMcpResourceTool are registered (once a server offered resources). */
  private resourceTools = false
  /** The servers' prompts, by the slash command each is registered as. */
  readonly prompts = new Map<string, PromptCommand>()

  constructor(private readonly $: ModApi, entries: ServerEntry[], private readonly ctx: { cwd: string; connectTimeoutMs: number }) {
    for (const entry of entries) this.open(entry)
  }

  private open(entry: ServerEntry): ServerConnection | undefined {
    const $ = this.$
    const report: ServerReport = { name: entry.name, scope: entry.scope, source: sourceOf(entry), status: 'pending', tools: [] }
    this.reports.push(report)
    if (entry.disabled || entry.error || !entry.config) {
      Object.assign(report, entry.disabled ? { status: 'disabled', error: entry.disabled } : { status: 'failed', error: entry.error })
      return undefined
    }
    const conn = new ServerConnection({ ...entry, config: entry.config }, {
      cwd: this.ctx.cwd, connectTimeoutMs: this.ctx.connectTimeoutMs,
      roots: async () => [...new Set([this.ctx.cwd, ...(await sessionDirectories($, [])).map((d) => resolve(this.ctx.cwd, d))])],
      // The session's environment: a query's `env` replaces this process's for the servers it starts too.
      env: () => Object.fromEntries(Object.entries(subprocessEnv($.env.all())).filter((kv): kv is [string, string] => kv[1] !== undefined)),
      envVar: (name) => $.env.get(name),
      onTools: (c) => this.syncTools(c),
      onStatus: (c) => this.update(c),
      log: (level, text) => $.log[level](text),
      elicitationHooks: async (req) => $.capability.use('elicitationHooks')?.({ sessionId: $.session.id() as string, ...req }),
      // Read when a server asks, from the launch options: query()'s onElicitation, the SDK transport's.
      elicitation: async () => (await launchFlags<{ onElicitation: OnElicitation }>($))?.onElicitation,
    })
    this.connections.push(conn)
    return conn
  }

  /** The connection of a server by name; an error naming the servers there are when there is none. */
  connection(name: string): ServerConnection {
    const conn = this.connections.find((c) => c.name === name)
    if (conn) return conn
    const report = this.reports.find((r) => r.name === name)
    if (report) throw new Error(`MCP server "${name}" cannot be connected: ${report.error ?? report.status}`)
    throw new Error(`no MCP server is named "${name}" (servers: ${this.reports.map((r) => r.name).join(', ') || 'none'})`)
  }

  /** Registers the server's current tool list (none, once it was switched off). */
  refreshTools(conn: ServerConnection): Promise<void> {
    return this.syncTools(conn)
  }

  /** The servers a setMcpServers call replaces: those an earlier call added, and the in-process ones. */
  runtimeNames(): string[] {
    return this.reports.filter((r) => this.added.has(r.name) || this.connections.find((c) => c.name === r.name)?.entry.config.type === 'sdk').map((r) => r.name)
  }

  /** Connects a server while the session runs (replacing one of the same name); resolves once it connected or failed. */
  async add(entry: ServerEntry): Promise<ServerConnection | { status: string; error?: string }> {
    if (this.reports.some((r) => r.name === entry.name)) await this.remove(entry.name)
    this.added.add(entry.name)
    const conn = this.open(entry)
    if (!conn) return this.reports.find((r) => r.name === entry.name)!
    await conn.connect()
    return conn
  }

  /** Disconnects a server and forgets it: its tools are removed. */
  async remove(name: string): Promise<void> {
    const conn = this.connections.find((c) => c.name === name)
    if (conn) {
      await conn.close()
      conn.tools = []
      await this.syncTools(conn)
      this.connections.splice(this.connections.indexOf(conn), 1)
    }
    const i = this.reports.findIndex((r) => r.name === name)
    if (i >= 0) this.reports.splice(i, 1)
    this.added.delete(name)
  }

  // The servers' first connections, once start began them.
  private firstConnections: Promise<unknown> = Promise.resolve()

  /** Connects every server at once; resolves when all settled or after `waitMs`, whichever is first. */
  async start(waitMs: number): Promise<void> {
    this.firstConnections = Promise.all(this.connections.map((c) => c.connect()))
    await this.ready(waitMs)
  }

  /** Whether a server is still making its first connection. */
  /** Whether the tool's server, or the tool itself (`_meta['anthropic/alwaysLoad']`), says to send its schema whole. */
  alwaysLoads(tool: string): boolean {
    return this.owners.get(tool)?.alwaysLoad === true
  }

  hasPending(): boolean {
    return this.reports.some((r) => r.status === 'pending')
  }

  /** Resolves when every server's first connection settled (connected or failed), or after `waitMs`. */
  async ready(waitMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined
    await Promise.race([this.firstConnections, new Promise((r) => { timer = setTimeout(r, waitMs) })])
    clearTimeout(timer)
  }

  /** Each server as Query.mcpServerStatus reports it: a connected one with its info and tools, a failed one with why. */
  statuses(): { name: string; status: ServerStatus }[] {
    return this.reports.map((r) => {
      const conn = r.status === 'connected' ? this.connections.find((c) => c.name === r.name) : undefined
      const info = conn?.serverInfo
      return {
        name: r.name, status: r.status, source: r.source,
        ...(info ? { serverInfo: info } : {}),
        ...(r.error && r.status === 'failed' ? { error: r.error } : {}),
        ...(conn ? { tools: r.tools.map((t) => ({ name: t.remote, annotations: t.annotations })) } : {}),
      }
    })
  }

  /** The `/mcp` text: each server's status, and the tools of the connected ones. */
  describe(): string {
    if (this.reports.length === 0) return 'No MCP servers are configured.'
    const lines = ['MCP servers:']
    for (const r of this.reports) {
      const tools = r.tools.length > 0 ? `, ${r.tools.length} tool${r.tools.length === 1 ? '' : 's'}` : ''
      lines.push(`  ${r.name} (${r.scope}): ${r.status}${tools}${r.error ? ` - ${r.error}` : ''}`)
      for (const t of r.tools) lines.push(`    ${t.name}${t.isReadOnly ? ' (read-only)' : ''}`)
    }
    return lines.join('\n')
  }

  async close(): Promise<void> {
    this.isClosed = true
    await Promise.all(this.connections.map((c) => c.close()))
  }

  private async syncTools(conn: ServerConnection): Promise<void> {
    if (this.isClosed) return
    if (conn.hasResources && !this.resourceTools) {
      this.resourceTools = true
      await registerResourceTools(this.$, this).catch((err: unknown) => this.$.log.warn(`the MCP resource tools could not be registered: ${describeError(err)}`))
    }
    await syncPrompts(this.$, conn, this.prompts)
    const report = this.reports.find((r) => r.name === conn.name)!
    const register = this.$.tool.register as unknown as (spec: ToolRegistration) => Promise<{ tool: string }>
    const unregister = this.$.tool.unregister as (args: { tool: string }) => unknown
    const wanted = new Map<string, RemoteTool>()
    for (const tool of conn.tools) {
      const name = toolName(conn.name, tool.name)
      const owner = this.owners.get(name)
      if (name.length > 64) this.$.log.warn(`${conn.name}: tool "${tool.name}" is left out: ${name} is longer than the 64 characters a tool name may have`)
      else if (owner && owner.server !== conn.name) this.$.log.warn(`${conn.name}: tool "${tool.name}" is left out: ${name} already belongs to server "${owner.server}"`)
      // `a.b` and `a_b` are both `a_b` to the model: the first keeps the name, so calls reach the tool they always did.
      else if (wanted.has(name)) this.$.log.warn(`${conn.name}: tool "${tool.name}" is left out: its name ${name} is also the name of its tool "${wanted.get(name)!.name}"`)
      else wanted.set(name, tool)
    }
    for (const [name, owner] of this.owners) {
      if (owner.server !== conn.name || wanted.has(name)) continue
      this.owners.delete(name)
      await Promise.resolve(unregister({ tool: name })).catch((err) => this.$.log.warn(`${name} could not be removed: ${describeError(err)}`))
    }
    for (const [name, tool] of wanted) {
      this.owners.set(name, { server: conn.name, remote: tool.name, alwaysLoad: conn.entry.config.alwaysLoad === true || tool._meta?.['anthropic/alwaysLoad'] === true })
      const { $schema: _, ...schema } = (tool.inputSchema ?? { type: 'object' }) as Record<string, unknown>
      const description = tool.description?.trim() || tool.annotations?.title || `${tool.name} (MCP server ${conn.name})`
      try {
        await register({
          name, inputSchema: { ...schema, type: 'object' },
          description: description.length > MAX_DESCRIPTION ? `${description.slice(0, MAX_DESCRIPTION)}...` : description,
          isReadOnly: tool.annotations?.readOnlyHint === true, traits: { external: true, mcpServer: { name: conn.name, source: report.source } },
          call: (input, ctx) => this.callTool(conn, name, tool, input, ctx),
        })
      } catch (err) {
        this.owners.delete(name)
        this.$.log.warn(`${name} could not be registered: ${describeError(err)}`)
      }
    }
    report.tools = [...wanted.entries()].filter(([n]) => this.owners.has(n)).map(([n, t]) => ({ name: n, remote: t.name, isReadOnly: t.annotations?.readOnlyHint === true, annotations: hintsOf(t) }))
  }

  private async callTool(conn: ServerConnection, name: string, tool: RemoteTool, input: Record<string, unknown>, ctx: ToolContext): Promise<ToolOutput> {
    let raw: unknown
    try {
      raw = await conn.call(tool.name, input, ctx.signal)
    } catch (err) {
      const text = describeError(err)
      return { result: text, text, isError: true }
    }
    const maxChars = tool._meta?.['anthropic/maxResultSizeChars']
    const limit = outputLimit(this.$.env.get('MAX_MCP_OUTPUT_TOKENS'), typeof maxChars === 'number' ? maxChars : undefined)
    // Not the name compaction gives a result it saves, so neither overwrites the other.
    const base = `mcp-${toolResultFile(ctx.toolUseId).replace(/\.txt$/, '')}`
    let blobs = 0
    return toToolOutput(raw, name, limit, {
      text: (text) => this.saveFile(`${base}.txt`, text, `an MCP output of ${text.length} characters`, 'it is cut at the limit'),
      blob: (data, mimeType) => this.saveFile(`${base}-${++blobs}.${extensionOf(mimeType)}`, Buffer.from(data, 'base64'), `binary content (${mimeType ?? 'no type'})`, 'it is only named'),
    })
  }

  /** Writes part of a result beside the session's transcript; undefined when it cannot (the caller says what happens then). */
  async saveFile(file: string, data: string | Buffer, what: string, otherwise: string): Promise<string | undefined> {
    try {
      const dir = toolResultsDirOf(this.$)
      await mkdir(dir, { recursive: true })
      const path = join(dir, file)
      await writeFile(path, data)
      return path
    } catch (err) {
      this.$.log.warn(`${what} could not be saved to a file (${describeError(err)}); ${otherwise}`)
      return undefined
    }
  }

  private update(conn: ServerConnection): void {
    const report = this.reports.find((r) => r.name === conn.name)
    if (!report) return
    // The init message carries only the status: the reason goes to the log (stderr in -p), once per failure.
    if (conn.status === 'failed' && conn.error && (report.status !== 'failed' || report.error !== conn.error)) {
      this.$.log.error(`MCP server "${conn.name}" failed: ${conn.error}`)
    }
    report.status = conn.status
    report.error = conn.error
  }
}

/**
 * The Agent SDK's `source` of a server: `sdk` for an in-process server, `plugin`, or the config
 * scope as Claude Code names it (`user`, `project`, `local`; `dynamic` for what the launch itself
 * brought: `--mcp-config`, `query()`'s `mcpServers`, the modloop config). Hosts key trust on it.
 */
function sourceOf(entry: ServerEntry): string {
  if (entry.config?.type === 'sdk') return 'sdk'
  return entry.scope === 'query' || entry.scope === 'config' ? 'dynamic' : entry.scope
}
