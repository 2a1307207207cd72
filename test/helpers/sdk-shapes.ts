import { z } from 'zod'

/**
 * The SDK message shapes of spec loop-and-sdk §2.2–2.4, as a consumer of `claude -p
 * --output-format stream-json --verbose` reads them: every field that spec makes required is
 * required here, with its type. Objects stay open (modloop may add optional fields), except that
 * no message may carry a top-level `message` other than the API message of user and assistant
 * lines — consumers read `line.message` as that.
 */

const id = z.string().min(1)
const base = { uuid: id, session_id: id }
const parent = z.string().min(1).nullable()
const count = z.number().int().min(0)
const noMessage = { message: z.never().optional() }

const PERMISSION_MODES = ['default', 'acceptEdits', 'bypassPermissions', 'plan', 'dontAsk', 'auto'] as const
const ASSISTANT_ERRORS = [
  'authentication_failed', 'oauth_org_not_allowed', 'account_on_hold', 'verification_required', 'billing_error', 'rate_limit',
  'overloaded', 'invalid_request', 'model_not_found', 'server_error', 'unknown', 'max_output_tokens', 'cloud_credential_error',
] as const
const TERMINAL_REASONS = [
  'completed', 'max_turns', 'budget_exhausted', 'structured_output_retry_exhausted', 'tool_deferred', 'tool_deferred_unavailable',
  'aborted_streaming', 'aborted_tools', 'hook_stopped', 'stop_hook_prevented', 'background_requested', 'prompt_too_long',
  'blocking_limit', 'rapid_refill_breaker', 'image_error', 'model_error', 'api_error', 'malformed_tool_use_exhausted', 'turn_setup_failed',
] as const
const STREAM_EVENTS = ['message_start', 'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop'] as const

export const usage = z.looseObject({ input_tokens: count, output_tokens: count, cache_read_input_tokens: count, cache_creation_input_tokens: count })

const modelUsage = z.looseObject({
  inputTokens: count, outputTokens: count, cacheReadInputTokens: count, cacheCreationInputTokens: count,
  webSearchRequests: count, costUSD: z.number().min(0), contextWindow: z.number().int().positive(), maxOutputTokens: z.number().int().positive(),
})

const contentBlock = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('text'), text: z.string() }),
  z.looseObject({ type: z.literal('thinking'), thinking: z.string(), signature: z.string() }),
  z.looseObject({ type: z.literal('redacted_thinking'), data: z.string() }),
  z.looseObject({ type: z.literal('tool_use'), id, name: id, input: z.record(z.string(), z.unknown()) }),
])

export const systemInit = z.looseObject({
  type: z.literal('system'), subtype: z.literal('init'), ...base, ...noMessage,
  apiKeySource: id, claude_code_version: id, cwd: id, tools: z.array(id), model: id,
  mcp_servers: z.array(z.looseObject({ name: id, status: id, source: z.string().optional() })),
  permissionMode: z.enum(PERMISSION_MODES), slash_commands: z.array(id), output_style: id, skills: z.array(z.string()),
  plugins: z.array(z.looseObject({ name: id, path: id, version: z.string().optional() })),
  mods: z.array(z.looseObject({ name: id, source: z.string().optional(), version: z.string().optional() })),
  agents: z.array(z.string()).optional(), betas: z.array(z.string()).optional(), effort: z.string().optional(),
  capabilities: z.array(z.string()).optional(),
})

export const assistant = z.looseObject({
  type: z.literal('assistant'), ...base, parent_tool_use_id: parent,
  message: z.looseObject({
    id, type: z.literal('message'), role: z.literal('assistant'), model: id,
    // One completed block per message (spec §2.1).
    content: z.array(contentBlock).length(1),
    stop_reason: z.string().nullable(), stop_sequence: z.string().nullable(), usage,
  }),
  error: z.enum(ASSISTANT_ERRORS).optional(),
  supersedes: z.array(id).optional(),
})

const toolResult = z.looseObject({
  type: z.literal('tool_result'), tool_use_id: id, content: z.union([z.string(), z.array(z.looseObject({ type: id }))]), is_error: z.boolean().optional(),
})

/** A user line on the output stream: tool results, with their structured result. */
export const userToolResult = z.looseObject({
  type: z.literal('user'), ...base, parent_tool_use_id: parent,
  message: z.looseObject({ role: z.literal('user'), content: z.array(toolResult).min(1) }),
  tool_use_result: z.unknown().refine((v) => v !== undefined, 'tool_use_result is required on a tool result line'),
})

/** A subagent's tool results on its caller's stream: a structured result only for a call that failed, as its error text. */
export const subagentToolResult = z.looseObject({
  type: z.literal('user'), ...base, parent_tool_use_id: id, agent_id: id, subagent_type: id, task_description: z.string(),
  message: z.looseObject({ role: z.literal('user'), content: z.array(toolResult).min(1) }),
  tool_use_result: z.string().startsWith('Error: ').optional(),
})

/** A foreground subagent's prompt: text, under the Agent call that started it, naming the subagent. */
export const subagentPrompt = z.looseObject({
  type: z.literal('user'), ...base, parent_tool_use_id: id, agent_id: id, subagent_type: id, task_description: z.string(),
  message: z.looseObject({ role: z.literal('user'), content: z.array(z.strictObject({ type: z.literal('text'), text: z.string() })).min(1) }),
})

export const streamEvent = z.looseObject({
  type: z.literal('stream_event'), ...base, parent_tool_use_id: parent, ...noMessage,
  event: z.looseObject({ type: z.enum(STREAM_EVENTS) }),
})

export const apiRetry = z.looseObject({
  type: z.literal('system'), subtype: z.literal('api_retry'), ...base, ...noMessage,
  attempt: z.number().int().min(1), max_retries: count, retry_delay_ms: z.number().min(0),
  error_status: z.number().int().nullable(), error: z.enum(ASSISTANT_ERRORS), no_response: z.boolean().optional(),
})

export const toolProgress = z.looseObject({
  type: z.literal('tool_progress'), ...base, ...noMessage,
  tool_use_id: id, tool_name: id, parent_tool_use_id: parent, elapsed_time_seconds: z.number().min(0),
  task_id: z.string().optional(), heartbeat: z.boolean().optional(), subagent_type: z.string().optional(),
  subagent_retry: z.strictObject({
    agent_id: id, attempt: z.number().int().min(1), max_retries: z.number().int().min(0), retry_delay_ms: z.number().min(0),
    error_status: z.number().int().nullable(), error_category: z.string(),
  }).optional(),
})

const informational = z.looseObject({
  type: z.literal('system'), subtype: z.literal('informational'), ...base, ...noMessage,
  content: z.string(), level: z.enum(['info', 'notice', 'suggestion', 'warning']),
})

const compactBoundary = z.looseObject({
  type: z.literal('system'), subtype: z.literal('compact_boundary'), ...base, ...noMessage,
  compact_metadata: z.looseObject({ trigger: z.enum(['manual', 'auto']), pre_tokens: count, post_tokens: count.optional(), duration_ms: count.optional() }),
})

const status = z.looseObject({
  type: z.literal('system'), subtype: z.literal('status'), ...base, ...noMessage,
  status: z.enum(['compacting', 'requesting']).nullable(), compact_result: z.enum(['success', 'failed']).optional(),
  permissionMode: z.enum(PERMISSION_MODES).optional(),
})

// The task messages (spec §2.4; the Agent SDK's SDKTask*Message and SDKBackgroundTasksChangedMessage).
const taskStarted = z.looseObject({
  type: z.literal('system'), subtype: z.literal('task_started'), ...base, ...noMessage,
  task_id: id, description: z.string(), tool_use_id: id.optional(), subagent_type: id.optional(), is_backgrounded: z.boolean().optional(),
  spawn_depth: count.optional(), task_type: id.optional(), prompt: z.string().optional(),
  skip_transcript: z.literal(true).optional(), ambient: z.literal(true).optional(),
})
const taskUpdated = z.looseObject({
  type: z.literal('system'), subtype: z.literal('task_updated'), ...base, ...noMessage, task_id: id,
  patch: z.looseObject({
    status: z.enum(['pending', 'running', 'completed', 'failed', 'killed', 'paused']).optional(), description: z.string().optional(),
    end_time: z.number().optional(), total_paused_ms: z.number().optional(), error: z.string().optional(), is_backgrounded: z.boolean().optional(),
  }),
})
const taskNotification = z.looseObject({
  type: z.literal('system'), subtype: z.literal('task_notification'), ...base, ...noMessage,
  task_id: id, tool_use_id: id.optional(), status: z.enum(['completed', 'failed', 'stopped']), output_file: z.string(), summary: z.string(),
  summary_is_report: z.literal(true).optional(),
  usage: z.looseObject({ total_tokens: count, tool_uses: count, duration_ms: count }).optional(),
  skip_transcript: z.literal(true).optional(), ambient: z.literal(true).optional(),
})
const backgroundTasksChanged = z.looseObject({
  type: z.literal('system'), subtype: z.literal('background_tasks_changed'), ...base, ...noMessage,
  tasks: z.array(z.looseObject({ task_id: id, task_type: id, subagent_type: id.optional(), description: z.string() })),
})

const otherSystem = z.looseObject({ type: z.literal('system'), subtype: id, ...base, ...noMessage })

const resultCommon = {
  type: z.literal('result'), ...base, ...noMessage,
  duration_ms: count, duration_api_ms: count, is_error: z.boolean(), num_turns: count, stop_reason: z.string().nullable(),
  total_cost_usd: z.number().min(0), usage, modelUsage: z.record(z.string(), modelUsage),
  permission_denials: z.array(z.looseObject({ tool_name: id, tool_use_id: id, tool_input: z.unknown() })),
  terminal_reason: z.enum(TERMINAL_REASONS),
  origin: z.looseObject({ kind: id }).optional(),
  api_error_status: z.number().int().nullable().optional(),
}

export const result = z.discriminatedUnion('subtype', [
  z.looseObject({ ...resultCommon, subtype: z.literal('success'), result: z.string() }),
  z.looseObject({
    ...resultCommon,
    subtype: z.enum(['error_during_execution', 'error_max_turns', 'error_max_budget_usd', 'error_max_structured_output_retries']),
    errors: z.array(z.string()),
  }),
])

const SYSTEM: Record<string, z.ZodType> = {
  init: systemInit, api_retry: apiRetry, informational, compact_boundary: compactBoundary, status,
  task_started: taskStarted, task_updated: taskUpdated, task_notification: taskNotification, background_tasks_changed: backgroundTasksChanged,
}

function hasToolResult(line: object): boolean {
  const content = ((line as { message?: { content?: unknown } }).message)?.content
  return Array.isArray(content) && content.some((b: { type?: unknown }) => b?.type === 'tool_result')
}

/** The schema a line must meet, by its type (and subtype); undefined for a type the spec does not have. */
export function shapeFor(line: { type?: unknown; subtype?: unknown }): z.ZodType | undefined {
  switch (line.type) {
    case 'system': return SYSTEM[String(line.subtype)] ?? otherSystem
    case 'assistant': return assistant
    // A subagent's line is its prompt or its tool results; any other is a tool result line.
    case 'user': return 'agent_id' in line ? (hasToolResult(line) ? subagentToolResult : subagentPrompt) : userToolResult
    case 'stream_event': return streamEvent
    case 'tool_progress': return toolProgress
    case 'result': return result
    default: return undefined
  }
}

/** Every problem of every line, as `line N (type/subtype): path: message`; empty when all fit. */
export function shapeProblems(lines: readonly Record<string, unknown>[]): string[] {
  const problems: string[] = []
  lines.forEach((line, i) => {
    const label = `line ${i + 1} (${String(line.type)}${line.subtype ? `/${String(line.subtype)}` : ''})`
    const schema = shapeFor(line)
    if (!schema) return void problems.push(`${label}: not an SDK message type`)
    const parsed = schema.safeParse(line)
    if (!parsed.success) for (const issue of parsed.error.issues) problems.push(`${label}: ${issue.path.join('.') || '(line)'}: ${issue.message}`)
  })
  return problems
}
