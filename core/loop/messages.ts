import type { ContentBlock, MessageParam, RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages'
import type { Usage } from '../events/types.js'

/**
 * The SDK-shaped messages `query()` yields and `-p --output-format stream-json` prints, one per
 * line. Consumers must ignore unknown types and subtypes; we only add optional fields.
 */

export type ResultSubtype = 'success' | 'error_during_execution' | 'error_max_turns' | 'error_max_budget_usd' | 'error_max_structured_output_retries'

export type TerminalReason =
  | 'completed' | 'max_turns' | 'budget_exhausted' | 'aborted_streaming' | 'aborted_tools' | 'hook_stopped'
  | 'stop_hook_prevented' | 'prompt_too_long' | 'rapid_refill_breaker' | 'image_error' | 'model_error' | 'api_error'
  | 'malformed_tool_use_exhausted' | 'turn_setup_failed' | 'structured_output_retry_exhausted'
  | 'tool_deferred' | 'tool_deferred_unavailable' | 'turn_stalled'

export interface ModelUsage {
  inputTokens: number
  outputTokens: number
  cacheReadInputTokens: number
  cacheCreationInputTokens: number
  /** The cache writes by time to live, as the responses reported the split (0 where none did). */
  cacheCreationEphemeral5mInputTokens?: number
  cacheCreationEphemeral1hInputTokens?: number
  webSearchRequests: number
  costUSD: number
  contextWindow: number
  maxOutputTokens: number
  /** Output tokens spent thinking, as the API reported them (output_tokens_details). */
  thinkingTokens?: number
  canonicalModel?: string
  /** modloop talks to Anthropic's own API only. */
  provider?: 'firstParty'
  costBasis?: 'list' | 'unknown'
}

export interface SDKSystemInit {
  type: 'system'
  subtype: 'init'
  cwd: string
  session_id: string
  tools: string[]
  mcp_servers: { name: string; status: string; source?: string }[]
  model: string
  permissionMode: string
  slash_commands: string[]
  apiKeySource: string
  claude_code_version: string
  modloop_version: string
  output_style: string
  skills: string[]
  /** The agent types the Agent tool can start (built-in, user, project, plugin `plugin:name`). */
  agents: string[]
  plugins: { name: string; path: string; source?: string; version?: string }[]
  mods: { name: string; source?: string; version?: string }[]
  /** The effort level the session's model is sent, when it takes one and one was asked for. */
  effort?: string
  /** The title a new session was given at launch (`-n`, query()'s `title`). */
  title?: string
  /** What this runtime's controls support, as the Agent SDK names it (e.g. `interrupt_receipt_v1`). */
  capabilities?: string[]
  uuid: string
}

export interface SDKSystemMessage {
  type: 'system'
  subtype: string
  session_id: string
  uuid: string
  [field: string]: unknown
}

/** The kinds of failure an assistant message can stand for (spec §2.2 SDKAssistantMessageError). */
export type AssistantMessageError =
  | 'authentication_failed' | 'oauth_org_not_allowed' | 'account_on_hold' | 'verification_required' | 'billing_error'
  | 'rate_limit' | 'overloaded' | 'invalid_request' | 'model_not_found' | 'server_error' | 'unknown' | 'max_output_tokens'
  | 'cloud_credential_error'

export interface SDKAssistantMessage extends SubagentFields {
  type: 'assistant'
  message: {
    id: string
    type: 'message'
    role: 'assistant'
    model: string
    content: ContentBlock[]
    stop_reason: string | null
    stop_sequence: string | null
    usage: Usage
  }
  parent_tool_use_id: string | null
  /** The API's id for the request that produced this response (its `request-id` header), when the model reports one. */
  request_id?: string
  /** Set on the message that stands for an API failure that ended the turn (turn-end.ts). */
  error?: AssistantMessageError
  /** That message is no response of the model: it never enters the history. */
  is_api_error_message?: true
  api_error_status?: number | null
  supersedes?: string[]
  uuid: string
  session_id: string
}

/**
 * On a subagent's messages as the caller's stream carries them: the subagent (its task's id), its
 * type and its task's description, so a caller can tell two subagents of one call apart.
 */
export interface SubagentFields {
  agent_id?: string
  subagent_type?: string
  task_description?: string
}

export interface SDKUserMessage extends SubagentFields {
  type: 'user'
  message: MessageParam
  parent_tool_use_id: string | null
  tool_use_result?: unknown
  isSynthetic?: boolean
  /** The message that opens a compacted conversation (its summary); recorded, not shown. */
  isCompactSummary?: true
  priority?: 'now' | 'next' | 'later'
  /** Where it came from when no person typed it: a background task's report (`task-notification`). */
  origin?: SDKMessageOrigin
  /** The echo of a prompt the caller sent (`replay-user-messages`): already recorded, carrying the uuid rewindFiles takes. */
  isReplay?: true
  /**
   * Written by the caller as it is to be read (the Agent SDK's mark, which its `verbatimPrompts`
   * sets on every prompt): no slash command runs and no `@path` is attached.
   */
  client_composed?: boolean
  uuid?: string
  session_id?: string
}

/**
 * Where a prompt came from, as the Agent SDK marks it on user messages and results. `bash` (a
 * modloop addition): the output of a command the person ran in the terminal's `!` mode.
 */
export type SDKMessageOrigin = { kind: 'human' } | { kind: 'task-notification'; task_id?: string } | { kind: 'bash' }

export interface SDKPartialMessage {
  type: 'stream_event'
  event: RawMessageStreamEvent
  parent_tool_use_id: string | null
  uuid: string
  session_id: string
}

/** A tool still running, at most once a second per call (spec §2.4). */
export interface SDKToolProgressMessage {
  type: 'tool_progress'
  tool_use_id: string
  tool_name: string
  parent_tool_use_id: string | null
  elapsed_time_seconds: number
  /** On a subagent's request retry (and the line that clears it): the subagent's type. */
  subagent_type?: string
  /** A subagent's request being retried, shown as progress of the call that waits on it. */
  subagent_retry?: SubagentRetry
  uuid: string
  session_id: string
}

/** The fields of the subagent's `api_retry`, `error` named `error_category` as Claude Code names it here. */
export interface SubagentRetry {
  agent_id: string
  attempt: number
  max_retries: number
  retry_delay_ms: number
  error_status: number | null
  error_category: string
}

export interface SDKResultMessage {
  type: 'result'
  subtype: ResultSubtype
  is_error: boolean
  result?: string
  errors?: string[]
  num_turns: number
  duration_ms: number
  duration_api_ms: number
  total_cost_usd: number
  usage: ResultUsage
  modelUsage: Record<string, ModelUsage>
  stop_reason: string | null
  terminal_reason: TerminalReason
  permission_denials: { tool_name: string; tool_use_id: string; tool_input: unknown }[]
  /** The call a `defer` verdict held back (terminal_reason tool_deferred or tool_deferred_unavailable). */
  deferred_tool_use?: { id: string; name: string; input: unknown }
  /** On a turn an API failure ended: its HTTP status, null when no response came at all; on any other success, null. */
  api_error_status?: number | null
  /** The value the StructuredOutput tool accepted (outputFormat), on a success. */
  structured_output?: unknown
  /** On a turn a local command answered without the model (`/cost`, `/compact`): its name. */
  local_command?: string
  /** Always 'off': modloop has no fast mode. */
  fast_mode_state: 'off'
  /** The uuid of the prompt's user message that started this turn (the id `rewindFiles` takes). */
  user_message_uuid?: string
  /** Which result of the query this is, from 0 (the main conversation's only). */
  result_index?: number
  /** Set on the result of a turn no person started: a background task's report (`task-notification`). */
  origin?: SDKMessageOrigin
  session_id: string
  uuid: string
}

/**
 * The conversation was replaced without ending the query (`/clear`): messages after it carry the new
 * `session_id`, and the results' totals start again from zero. `session_id` is the outgoing one.
 */
export interface SDKConversationResetMessage {
  type: 'conversation_reset'
  new_conversation_id: string
  trigger: 'clear'
  timestamp: string
  session_id: string
  uuid: string
}

/** A predicted next prompt, after a turn's result (promptSuggestions); shown, never recorded. */
export interface SDKPromptSuggestionMessage {
  type: 'prompt_suggestion'
  suggestion: string
  session_id: string
  uuid: string
}

export type SDKMessage = SDKSystemInit | SDKSystemMessage | SDKAssistantMessage | SDKUserMessage | SDKPartialMessage | SDKToolProgressMessage | SDKResultMessage | SDKConversationResetMessage | SDKPromptSuggestionMessage

export { uuid } from '../random.js'

export const zeroUsage = (): Usage => ({ input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 })

/** Counts add up; how the API served the requests (tier, geo, speed, …) is as the latest usage that says it said, as in Claude Code; a fallback credit the latest one reported. */
export function addUsage(into: Usage, u: Partial<Usage> | null | undefined): void {
  if (!u) return
  into.input_tokens += u.input_tokens ?? 0
  into.output_tokens += u.output_tokens ?? 0
  into.cache_read_input_tokens += u.cache_read_input_tokens ?? 0
  into.cache_creation_input_tokens += u.cache_creation_input_tokens ?? 0
  if (u.cache_creation) {
    const c = (into.cache_creation ??= { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 })
    c.ephemeral_5m_input_tokens += u.cache_creation.ephemeral_5m_input_tokens
    c.ephemeral_1h_input_tokens += u.cache_creation.ephemeral_1h_input_tokens
  }
  if (u.server_tool_use) {
    const t = (into.server_tool_use ??= { web_search_requests: 0, web_fetch_requests: 0 })
    t.web_search_requests += u.server_tool_use.web_search_requests
    t.web_fetch_requests = (t.web_fetch_requests ?? 0) + (u.server_tool_use.web_fetch_requests ?? 0)
  }
  if (u.output_tokens_details) (into.output_tokens_details ??= { thinking_tokens: 0 }).thinking_tokens += u.output_tokens_details.thinking_tokens
  // Only what the added usage says: a failed or cut-off request's usage names no tier, and must not
  // reset what the last response said to the defaults.
  if (u.service_tier !== undefined) into.service_tier = u.service_tier
  if (u.inference_geo !== undefined) into.inference_geo = u.inference_geo
  if (u.speed !== undefined) into.speed = u.speed
  if (u.iterations !== undefined) into.iterations = u.iterations
  if (u.fallback_credit !== undefined) into.fallback_credit = u.fallback_credit
}

/**
 * The result's usage (the SDK's NonNullableUsage): every field the API's usage has, in Claude
 * Code's order, with Claude Code's value where no response reported one.
 */
export interface ResultUsage {
  input_tokens: number
  cache_creation_input_tokens: number
  cache_read_input_tokens: number
  output_tokens: number
  output_tokens_details: { thinking_tokens: number }
  server_tool_use: { web_search_requests: number; web_fetch_requests: number }
  service_tier: string
  cache_creation: { ephemeral_1h_input_tokens: number; ephemeral_5m_input_tokens: number }
  inference_geo: string
  iterations: unknown[]
  speed: string
  fallback_credit: unknown
}

export function resultUsage(u: Usage): ResultUsage {
  return {
    input_tokens: u.input_tokens,
    cache_creation_input_tokens: u.cache_creation_input_tokens,
    cache_read_input_tokens: u.cache_read_input_tokens,
    output_tokens: u.output_tokens,
    output_tokens_details: { thinking_tokens: u.output_tokens_details?.thinking_tokens ?? 0 },
    server_tool_use: { web_search_requests: u.server_tool_use?.web_search_requests ?? 0, web_fetch_requests: u.server_tool_use?.web_fetch_requests ?? 0 },
    service_tier: u.service_tier ?? 'standard',
    cache_creation: { ephemeral_1h_input_tokens: u.cache_creation?.ephemeral_1h_input_tokens ?? 0, ephemeral_5m_input_tokens: u.cache_creation?.ephemeral_5m_input_tokens ?? 0 },
    inference_geo: u.inference_geo ?? '',
    iterations: u.iterations ?? [],
    speed: u.speed ?? 'standard',
    fallback_credit: u.fallback_credit ?? null,
  }
}

/**
 * A response's blocks as the history sends them back: the API refuses a text block with no text
 * in a request ("text content blocks must contain non-whitespace text"), though a response may
 * hold one, so such blocks are left out.
 */
export function historyBlocks<B extends { type: string }>(blocks: readonly B[]): B[] {
  return blocks.filter((b) => b.type !== 'text' || (b as { text?: unknown }).text === undefined || String((b as { text?: unknown }).text).trim() !== '')
}

/**
 * A whole response's blocks without the thinking it ended on. A response cut while it streamed
 * (an interrupt, a crash, max_tokens) can end on a thinking block; sent back as the latest
 * assistant message it is refused ("thinking blocks in the latest assistant message cannot be
 * modified"), on every request from then on. Nothing the model said or did is lost with it.
 */
export function withoutTrailingThinking<B extends { type: string }>(blocks: readonly B[]): B[] {
  let end = blocks.length
  while (end > 0 && (blocks[end - 1]!.type === 'thinking' || blocks[end - 1]!.type === 'redacted_thinking')) end--
  return end === blocks.length ? [...blocks] : blocks.slice(0, end)
}
