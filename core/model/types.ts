import type { RawMessageStreamEvent, MessageParam } from '@anthropic-ai/sdk/resources/messages'

export type { RawMessageStreamEvent, MessageParam }

/** A prompt-cache breakpoint: the prefix up to and including the block it sits on is cached. */
export interface CacheControl { type: 'ephemeral'; ttl?: '5m' | '1h' }

export interface ToolDefinition {
  name: string
  description: string
  input_schema: Record<string, unknown>
  cache_control?: CacheControl
  /** Sent by name only until a tool result's `tool_reference` loads it (tool search). */
  defer_loading?: true
}

/**
 * A tool the API runs itself (`web_search_20250305`, …): it has no schema, the response carries
 * its call and its result, and the client runs nothing.
 */
export interface ServerToolDefinition {
  type: string
  name: string
  [option: string]: unknown
}

export interface SystemBlock { type: 'text'; text: string; cache_control?: CacheControl }

/** One Messages API request, as the loop builds it (the adapter adds `stream: true`). */
export interface ModelRequest {
  model: string
  max_tokens: number
  system?: string | SystemBlock[]
  messages: MessageParam[]
  tools?: (ToolDefinition | ServerToolDefinition)[]
  thinking?: { type: 'enabled'; budget_tokens: number } | { type: 'adaptive' } | { type: 'disabled' }
  output_config?: {
    effort?: 'low' | 'medium' | 'high' | 'xhigh' | 'max'
    /** The tokens the whole task may take, counted down by the API (the `task-budgets-2026-03-13` beta). */
    task_budget?: { type: 'tokens'; total: number; remaining?: number }
  }
  metadata?: { user_id?: string }
  /** Beta features, sent as the `anthropic-beta` header (the `betas` query option). */
  betas?: string[]
}

export type ModelErrorType =
  | 'rate_limit' | 'overloaded' | 'server_error' | 'authentication_failed' | 'billing_error'
  | 'invalid_request' | 'model_not_found' | 'connection' | 'stream' | 'aborted' | 'unknown'

export interface RetryInfo {
  attempt: number
  maxRetries: number
  delayMs: number
  status: number | null
  error: ModelErrorType
  message: string
}

export interface StreamOptions {
  signal?: AbortSignal
  /** Called before each retry of a failed request (nothing has been streamed yet). */
  onRetry?: (info: RetryInfo) => void
  /**
   * A fallback model waits to take over: an overload is tried three times in all and a server
   * error once before the request fails, as Claude Code hands over, instead of every retry.
   */
  fallbackWaiting?: boolean
  /** Called as a response starts, with the id the API gave the request (its `request-id` header), when known. */
  onResponse?: (info: { requestId?: string }) => void
}

/**
 * A model streams one response as raw Messages API stream events — the same sequence the
 * Anthropic API sends — so the loop has one path for the real API and the scripted model.
 * It throws a ModelApiError when the request fails after its retries.
 */
export interface Model {
  readonly name: string
  stream(request: ModelRequest, options?: StreamOptions): AsyncIterable<RawMessageStreamEvent>
}

export class ModelApiError extends Error {
  constructor(
    readonly type: ModelErrorType,
    message: string,
    readonly status: number | null = null,
    /** True when an event had already been streamed when the failure happened. */
    readonly midStream = false,
  ) {
    super(message)
    this.name = 'ModelApiError'
  }

  get retryable(): boolean {
    return !this.midStream && isTransient(this.type)
  }
}

/** A failure worth another try: a throttle, an overload, a server or connection failure, or a cut stream. */
export function isTransient(type: ModelErrorType): boolean {
  return type === 'rate_limit' || type === 'overloaded' || type === 'server_error' || type === 'connection' || type === 'stream'
}
