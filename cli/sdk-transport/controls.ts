import type { Query } from '../../runtime/query.js'
import type { ContextUsage } from '../../runtime/context-usage.js'
import type { McpServerConfig, McpServerMode } from '../../core/mod/session-capabilities.js'
import { describeError, ModloopError } from '../../core/errors.js'
import { permissionModeOf } from '../../core/permission-modes.js'
import type { McpProxies } from './mcp-proxy.js'
import type { ControlRequest, Wire } from './wire.js'

export interface ControlContext {
  query: Query
  /** Settles once the session is open: controls that come earlier wait for it, as the SDK's requests wait for the CLI. */
  ready: Promise<unknown>
  wire: Wire
  proxies: McpProxies
  /** Answers a repeated initialize. */
  reinitialize(request: ControlRequest['request']): Promise<Record<string, unknown>>
  /** The SDK asked the session to end (end_session): no more input is read. */
  endInput(): void
}

/** A refusal with the SDK's `error_code` for it. */
class CodedError extends Error {
  constructor(readonly code: string, message: string) {
    super(message)
  }
}

type Handler = (r: Record<string, unknown>, ctx: ControlContext) => Promise<object>

const str = (v: unknown) => (typeof v === 'string' ? v : undefined)

/**
 * The control requests the SDK sends, each onto the Query control that does it. A request modloop
 * has no control for is answered with an error naming it, so the application's promise rejects
 * with that reason instead of waiting.
 */
const HANDLERS: Record<string, Handler> = {
  initialize: (r, ctx) => ctx.reinitialize(r as ControlRequest['request']),
  interrupt: async (r, { query }) => (await query.interrupt({ cancel_queued: r.cancel_queued === true })) ?? { still_queued: [] },
  set_permission_mode: async (r, { query }) => {
    const mode = String(r.mode)
    return query.setPermissionMode(mode).catch((err: unknown) => {
      // Claude Code's codes for the two refusals an application can act on.
      const code = permissionModeOf(mode) === undefined ? 'invalid_mode'
        : mode === 'bypassPermissions' && err instanceof ModloopError && err.field === 'mode' ? 'bypass_not_launched' : undefined
      throw code ? new CodedError(code, describeError(err)) : err
    })
  },
  set_model: async (r, { query }) => {
    await query.setModel(str(r.model) ?? undefined)
    return {}
  },
  set_max_thinking_tokens: async (r, { query }) => {
    await query.setMaxThinkingTokens(typeof r.max_thinking_tokens === 'number' ? r.max_thinking_tokens : null)
    return {}
  },
  mcp_status: async (_r, { query }) => ({ mcpServers: await query.mcpServerStatus() }),
  get_context_usage: async (_r, { query }) => contextUsage(await query.getContextUsage()),
  rewind_files: async (r, { query }) => query.rewindFiles(String(r.user_message_id), { dryRun: r.dry_run === true }),
  mcp_reconnect: async (r, { query }) => {
    await query.reconnectMcpServer(String(r.serverName))
    return {}
  },
  mcp_toggle: async (r, { query }) => {
    await query.toggleMcpServer(String(r.serverName), r.enabled === true)
    return {}
  },
  mcp_set_servers: async (r, { query, proxies }) => {
    // The SDK's own servers come as {type: 'sdk', name}: they are reached through proxies.
    const servers = Object.fromEntries(Object.entries((r.servers ?? {}) as Record<string, { type?: string }>)
      .map(([name, s]) => [name, s?.type === 'sdk' ? proxies.server(name) : s]))
    return query.setMcpServers(servers as Record<string, McpServerConfig>)
  },
  apply_flag_settings: async (r, { query }) => {
    await query.applyFlagSettings(r.settings as Record<string, unknown>)
    return {}
  },
  // Left for the query to validate, so a mode it cannot take is named in the error.
  set_mcp_permission_mode_override: async (r, { query }) => query.setMcpPermissionModeOverride(String(r.serverName), (r.mode ?? null) as McpServerMode | null),
  mcp_read_resource: async (r, { query }) => query.readMcpResource(String(r.serverName), String(r.uri)),
  reload_skills: async (_r, { query }) => query.reloadSkills(),
  reload_output_styles: async (_r, { query }) => query.reloadOutputStyles(),
  read_file: async (r, { query }) => {
    // Left for readFile to validate, so a bad value is named in the error.
    const path = r.path as string
    const file = await query.readFile(path, { maxBytes: r.max_bytes, encoding: r.encoding } as Parameters<Query['readFile']>[1])
    // The SDK's readFile resolves null for any error answer.
    if (!file) throw new Error(`read_file: ${path} cannot be read (missing, not a regular file, or not readable under the permission rules)`)
    return file
  },
  seed_read_state: async (r, { query }) => {
    await query.seedReadState(r.path as string, r.mtime as number)
    return {}
  },
  side_question: async (r, { query }) => query.askSideQuestion(r.question as string),
  mcp_message: async (r, { proxies }) => {
    await proxies.deliver(String(r.server_name), r.message)
    return {}
  },
  stop_task: async (r, { query }) => {
    await query.stopTask(String(r.task_id))
    return {}
  },
  background_tasks: async (r, { query }) => ({ backgrounded: await query.backgroundTasks(str(r.tool_use_id)) }),
  end_session: async (_r, ctx) => {
    ctx.endInput()
    await ctx.query.interrupt({ cancel_queued: true })
    return {}
  },
}

/** Answers one control request from the SDK; never throws (a failure is the error answer). */
export async function answerControl(message: ControlRequest, ctx: ControlContext): Promise<void> {
  const { request_id: id, request } = message
  const handler = typeof request?.subtype === 'string' ? HANDLERS[request.subtype] : undefined
  if (!handler) {
    ctx.wire.respond(id, { error: `modloop does not support the control request "${String(request?.subtype)}" (docs/agent-sdk.md lists those it does)`, code: 'unsupported_request' })
    return
  }
  try {
    await ctx.ready
    ctx.wire.respond(id, { response: await handler(request, ctx) })
  } catch (err) {
    ctx.wire.respond(id, { error: describeError(err), ...(err instanceof CodedError ? { code: err.code } : {}) })
  }
}

/** The names of the control requests answered, for the docs test. */
export const CONTROL_SUBTYPES = Object.keys(HANDLERS)

/** modloop's context usage in the SDK's shape (the fields it has no figure for are empty). */
function contextUsage(u: ContextUsage): object {
  return {
    categories: u.categories.map((c) => ({ name: c.name, tokens: c.tokens, color: c.name === 'Free space' ? 'promptBorder' : 'text', kind: c.name === 'Free space' ? 'free' : 'used' })),
    totalTokens: u.totalTokens, maxTokens: u.maxTokens, rawMaxTokens: u.maxTokens, percentage: u.percentage, gridRows: [], model: u.model,
    memoryFiles: [], mcpTools: [], agents: [], isAutoCompactEnabled: true, isEstimate: u.isEstimate,
  }
}
