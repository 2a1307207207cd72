import { z } from 'zod'
import { ModloopError } from '../../core/errors.js'

/**
 * The model script format, shared by the in-process scripted model and the fake Messages API
 * server: each step answers one model request, in order.
 */

const TextBlock = z.strictObject({ text: z.string() })
const ThinkingBlock = z.strictObject({ thinking: z.string(), signature: z.string().optional() })
const ToolUseBlock = z.strictObject({
  tool_use: z.strictObject({
    id: z.string().optional(),
    name: z.string().min(1),
    input: z.record(z.string(), z.unknown()),
  }),
})
/** Sends `json` verbatim as the input_json_delta, so a script can produce malformed tool input. */
const ToolUseRawBlock = z.strictObject({
  tool_use_raw: z.strictObject({ id: z.string().optional(), name: z.string().min(1), json: z.string() }),
})

/** A server tool the API runs itself (web search): streamed as the API streams one, input as input_json_delta. */
const ServerToolUseBlock = z.strictObject({
  server_tool_use: z.strictObject({
    id: z.string().optional(),
    name: z.string().min(1).default('web_search'),
    input: z.record(z.string(), z.unknown()),
  }),
})
const WebSearchHit = z.strictObject({
  title: z.string(),
  url: z.string(),
  page_age: z.string().nullable().optional(),
  encrypted_content: z.string().optional(),
})
/**
 * What the API's search found, sent whole in its content_block_start: the hits, or an error code.
 * Without `tool_use_id` it answers the step's last server_tool_use.
 */
const WebSearchResultBlock = z.strictObject({
  web_search_tool_result: z.strictObject({
    tool_use_id: z.string().optional(),
    content: z.union([
      z.array(WebSearchHit),
      z.strictObject({ error_code: z.enum(['invalid_tool_input', 'unavailable', 'max_uses_exceeded', 'too_many_requests', 'query_too_long', 'request_too_large']) }),
    ]),
  }),
})

export type TextBlock = z.infer<typeof TextBlock>
export type ThinkingBlock = z.infer<typeof ThinkingBlock>
export type ToolUseBlock = z.infer<typeof ToolUseBlock>
export type ToolUseRawBlock = z.infer<typeof ToolUseRawBlock>
export type ServerToolUseBlock = z.infer<typeof ServerToolUseBlock>
export type WebSearchResultBlock = z.infer<typeof WebSearchResultBlock>
export type ScriptBlock = TextBlock | ThinkingBlock | ToolUseBlock | ToolUseRawBlock | ServerToolUseBlock | WebSearchResultBlock

// Blocks are told apart by their one key; dispatching on it by hand (instead of a zod union)
// lets an error name the field inside the block the author meant, not "no union member matched".
const BLOCK_KINDS = {
  text: TextBlock, thinking: ThinkingBlock, tool_use: ToolUseBlock, tool_use_raw: ToolUseRawBlock,
  server_tool_use: ServerToolUseBlock, web_search_tool_result: WebSearchResultBlock,
} as const

const Expect = z.strictObject({
  model: z.string().optional(),
  lastUserText: z.string().optional(),
  toolResults: z.number().int().min(0).optional(),
})
export type StepExpect = z.infer<typeof Expect>

/**
 * Which request a step answers when requests run side by side (a background subagent beside the
 * main loop): the first request that matches it, out of order. Steps without `when` answer the
 * other requests in order.
 */
const When = z.strictObject({
  /** The first user message's text contains this (a subagent's first message is its prompt). */
  firstUserText: z.string().optional(),
  lastUserText: z.string().optional(),
})
export type StepWhen = z.infer<typeof When>

const ScriptUsage = z.strictObject({
  input_tokens: z.number().int().min(0).optional(),
  output_tokens: z.number().int().min(0).optional(),
  cache_read_input_tokens: z.number().int().min(0).optional(),
  cache_creation_input_tokens: z.number().int().min(0).optional(),
  /** The part of output_tokens spent thinking, sent in message_delta's output_tokens_details. */
  thinking_tokens: z.number().int().min(0).optional(),
  /** How the API served the request, sent in message_start (null there unless given; the tier 'standard'). */
  service_tier: z.string().optional(),
  inference_geo: z.string().optional(),
  speed: z.string().optional(),
})
export type ScriptUsage = z.infer<typeof ScriptUsage>

/** A stream event sent as it is: its `type` names the SSE frame (`error` included). */
const RawEvent = z.looseObject({ type: z.string().min(1) })
export type RawEvent = z.infer<typeof RawEvent>

const ReplyFields = z.strictObject({
  reply: z.unknown(),
  /**
   * The stream's events verbatim, in place of the ones `reply` would make: for what blocks cannot
   * describe (an `error` event mid-stream, a stop reason such as `pause_turn`, a block type modloop
   * does not know). A step with `events` needs no `reply`.
   */
  events: z.array(RawEvent).optional(),
  stop_reason: z.enum(['end_turn', 'tool_use', 'max_tokens', 'stop_sequence', 'refusal', 'pause_turn', 'model_context_window_exceeded']).optional(),
  usage: ScriptUsage.optional(),
  model: z.string().optional(),
  delayMs: z.number().min(0).optional(),
  chunkDelayMs: z.number().min(0).optional(),
  /** Stop after this many events without message_stop, as if the connection were cut. */
  truncateAfter: z.number().int().min(0).optional(),
  /** Send this many events, then nothing: the connection stays open until the client gives up on it. */
  stallAfter: z.number().int().min(0).optional(),
  /** Send this many events, then a frame whose data is not JSON, and end the response. */
  malformedAfter: z.number().int().min(0).optional(),
  expect: Expect.optional(),
  when: When.optional(),
})

const ErrorStep = z.strictObject({
  error: z.strictObject({
    status: z.number().int().min(400).max(599),
    type: z.string().optional(),
    message: z.string().optional(),
  }),
  /** Answer this many consecutive requests with the same failure. */
  times: z.number().int().min(1).optional(),
  /** The `retry-after` header (seconds, or an HTTP date); null sends none. 429 and 529 send "0" unless told. */
  retryAfter: z.string().nullable().optional(),
  expect: Expect.optional(),
  when: When.optional(),
})

export type ReplyStep = Omit<z.infer<typeof ReplyFields>, 'reply'> & { reply: ScriptBlock[] }
export type ErrorStep = z.infer<typeof ErrorStep>
export type Step = ReplyStep | ErrorStep

/** A parsed script: string replies are already normalised to one text block. */
export interface Script { steps: Step[] }

export function isErrorStep(step: Step): step is ErrorStep {
  return 'error' in step
}

/** Validates a script value (`{ steps }` or a bare step array); `file` only feeds error reports. */
export function parseScript(value: unknown, file?: string): Script {
  const raw = Array.isArray(value) ? value : isObject(value) && Array.isArray(value.steps) ? value.steps : undefined
  if (raw === undefined) fail('a model script must be { "steps": [...] } or an array of steps', 'steps', file)
  if (isObject(value) && !Array.isArray(value)) {
    const extra = Object.keys(value).filter((k) => k !== 'steps')
    if (extra.length > 0) fail(`unknown key "${extra[0]}" (a script has only "steps")`, String(extra[0]), file)
  }
  return { steps: raw.map((step, i) => parseStep(step, i, file)) }
}

function parseStep(value: unknown, index: number, file?: string): Step {
  const at = `steps[${index}]`
  if (!isObject(value)) fail(`${at}: a step must be an object`, at, file)
  if ('reply' in value && 'error' in value) fail(`${at}: a step has either "reply" or "error", not both`, at, file)
  if ('error' in value) return check(ErrorStep, value, at, file)
  if (!('reply' in value) && !('events' in value)) fail(`${at}: a step needs "reply", "events" or "error"`, at, file)
  const fields = check(ReplyFields, { reply: [], ...value }, at, file)
  const reply = fields.reply
  if (typeof reply === 'string') return { ...fields, reply: [{ text: reply }] }
  if (!Array.isArray(reply)) fail(`${at}.reply: expected a string or an array of blocks`, `${at}.reply`, file)
  return { ...fields, reply: reply.map((block, j) => parseBlock(block, `${at}.reply[${j}]`, file)) }
}

function parseBlock(value: unknown, at: string, file?: string): ScriptBlock {
  if (!isObject(value)) fail(`${at}: a block must be an object`, at, file)
  const kind = (Object.keys(BLOCK_KINDS) as (keyof typeof BLOCK_KINDS)[]).find((k) => k in value)
  if (kind === undefined) {
    fail(`${at}: a block needs one of ${Object.keys(BLOCK_KINDS).join(', ')}`, at, file)
  }
  const schema: z.ZodType<ScriptBlock> = BLOCK_KINDS[kind]
  return check(schema, value, at, file)
}

function check<T>(schema: z.ZodType<T>, value: unknown, at: string, file?: string): T {
  const result = schema.safeParse(value)
  if (result.success) return result.data
  const issue = result.error.issues[0]
  const path = [at, ...(issue?.path ?? []).map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))].join('')
  fail(`${path}: ${issue?.message ?? 'invalid'}`, path, file)
}

function fail(message: string, field: string, file?: string): never {
  throw new ModloopError('MODLOOP_ERR_SCRIPT', `model script${file ? ` ${file}` : ''}: ${message}`, { field, file })
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
