import type {
  ContentBlock, Message, MessageDeltaUsage, RawContentBlockStartEvent, RawMessageStreamEvent, ServerToolUseBlock, StopReason, Usage,
} from '@anthropic-ai/sdk/resources/messages'
import { weighedJsonLength } from '../../core/model/media-weight.js'
import type { ReplyStep, ScriptBlock } from './script-schema.js'

/** Text and tool JSON are cut into pieces of this size so a reply really streams. */
const CHUNK_CHARS = 16

/** The request fields a step reads; the loop's ModelRequest and a raw HTTP body both fit. */
export interface ScriptRequest {
  model?: unknown
  messages?: unknown
  system?: unknown
  tools?: unknown
}

/** Usage the server worked out for a request (its prompt cache); a step with its own `usage` ignores it. */
export interface CountedUsage {
  input_tokens: number
  cache_read_input_tokens: number
  cache_creation_input_tokens: number
  cache_creation: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number }
}

/**
 * The Messages API stream events answering `request` with a reply step, in the order the API
 * sends them. Ids are derived from the step index so two runs of a script stream equal events.
 */
export function eventsForStep(step: ReplyStep, request: ScriptRequest, stepIndex: number, counted?: CountedUsage): RawMessageStreamEvent[] {
  if (step.events) return step.events as unknown as RawMessageStreamEvent[]
  const model = step.model ?? (typeof request.model === 'string' ? request.model : 'unknown-model')
  const usage = step.usage ?? {}
  // A step that states its usage states all of it: what the server counted does not add to it.
  if (step.usage) counted = undefined
  const inputTokens = usage.input_tokens ?? counted?.input_tokens ?? estimateJsonTokens([request.system, request.messages, request.tools])
  const outputTokens = usage.output_tokens ?? Math.max(1, estimateTokens(step.reply.map(blockText).join('')))
  const cacheRead = usage.cache_read_input_tokens ?? counted?.cache_read_input_tokens ?? 0
  const cacheWrite = usage.cache_creation_input_tokens ?? counted?.cache_creation_input_tokens ?? 0
  const split = usage.cache_creation_input_tokens === undefined && counted ? counted.cache_creation : { ephemeral_5m_input_tokens: cacheWrite, ephemeral_1h_input_tokens: 0 }
  const hasToolUse = step.reply.some((b) => 'tool_use' in b || 'tool_use_raw' in b)
  const stopReason: StopReason = step.stop_reason ?? (hasToolUse ? 'tool_use' : 'end_turn')

  const startUsage: Usage = {
    input_tokens: inputTokens,
    output_tokens: 1,
    cache_creation_input_tokens: cacheWrite,
    cache_read_input_tokens: cacheRead,
    cache_creation: split,
    inference_geo: usage.inference_geo ?? null,
    output_tokens_details: null,
    server_tool_use: null,
    service_tier: (usage.service_tier ?? 'standard') as Usage['service_tier'],
    speed: (usage.speed ?? null) as Usage['speed'],
  }
  const events: RawMessageStreamEvent[] = [{
    type: 'message_start',
    message: {
      id: `msg_step${stepIndex}`,
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      stop_details: null,
      container: null,
      diagnostics: null,
      usage: startUsage,
    },
  }]

  let toolCount = 0
  let serverCount = 0
  let searches = 0
  let lastServerId: string | undefined
  step.reply.forEach((block, index) => {
    if ('text' in block) {
      events.push(start(index, { type: 'text', text: '', citations: null }))
      for (const text of chunks(block.text)) events.push({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } })
    } else if ('thinking' in block) {
      events.push(start(index, { type: 'thinking', thinking: '', signature: '' }))
      for (const thinking of chunks(block.thinking)) {
        events.push({ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking } })
      }
      const signature = block.signature ?? `sig_step${stepIndex}_${index}`
      events.push({ type: 'content_block_delta', index, delta: { type: 'signature_delta', signature } })
    } else if ('server_tool_use' in block) {
      const tool = block.server_tool_use
      lastServerId = tool.id ?? `srvtoolu_${stepIndex}_${++serverCount}`
      if (tool.name === 'web_search') searches++
      events.push(start(index, { type: 'server_tool_use', id: lastServerId, name: tool.name as ServerToolUseBlock['name'], input: {}, caller: { type: 'direct' } }))
      for (const partial_json of chunks(JSON.stringify(tool.input))) {
        events.push({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } })
      }
    } else if ('web_search_tool_result' in block) {
      // The API sends a search's result whole, in its content_block_start, with no deltas.
      const { tool_use_id, content } = block.web_search_tool_result
      const hits = Array.isArray(content)
        ? content.map((h) => ({ type: 'web_search_result' as const, title: h.title, url: h.url, page_age: h.page_age ?? null, encrypted_content: h.encrypted_content ?? `enc_${h.url}` }))
        : { type: 'web_search_tool_result_error' as const, error_code: content.error_code }
      events.push(start(index, { type: 'web_search_tool_result', tool_use_id: tool_use_id ?? lastServerId ?? `srvtoolu_${stepIndex}_0`, content: hits, caller: { type: 'direct' } }))
    } else {
      toolCount++
      const tool = 'tool_use' in block ? block.tool_use : block.tool_use_raw
      const json = 'tool_use' in block ? JSON.stringify(block.tool_use.input) : block.tool_use_raw.json
      const id = tool.id ?? `toolu_${stepIndex}_${toolCount}`
      events.push(start(index, { type: 'tool_use', id, name: tool.name, input: {}, caller: { type: 'direct' } }))
      for (const partial_json of chunks(json)) {
        events.push({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } })
      }
    }
    events.push({ type: 'content_block_stop', index })
  })

  const deltaUsage: MessageDeltaUsage = {
    input_tokens: inputTokens,
    output_tokens: outputTokens,
    cache_creation_input_tokens: cacheWrite,
    cache_read_input_tokens: cacheRead,
    output_tokens_details: usage.thinking_tokens !== undefined ? { thinking_tokens: usage.thinking_tokens } : null,
    // As the API counts them: the searches its server ran for this response.
    server_tool_use: searches > 0 ? { web_search_requests: searches, web_fetch_requests: 0 } : null,
  }
  events.push({
    type: 'message_delta',
    delta: { stop_reason: stopReason, stop_sequence: null, stop_details: null, container: null },
    usage: deltaUsage,
  })
  events.push({ type: 'message_stop' })
  return events
}

/**
 * Folds a stream's events into the Message they describe — what a non-streaming request
 * answers. Tool input arrives as JSON text; text that does not parse is kept as the string.
 */
export function assembleMessage(events: Iterable<RawMessageStreamEvent>): Message {
  let message: Message | undefined
  const json = new Map<number, string>()
  for (const event of events) {
    if (event.type === 'message_start') {
      message = { ...event.message, content: [], usage: { ...event.message.usage } }
      continue
    }
    if (message === undefined) throw new Error(`stream event ${event.type} came before message_start`)
    switch (event.type) {
      case 'content_block_start':
        message.content[event.index] = { ...event.content_block } as ContentBlock
        break
      case 'content_block_delta': {
        const block = message.content[event.index]
        const delta = event.delta
        if (delta.type === 'text_delta' && block?.type === 'text') block.text += delta.text
        else if (delta.type === 'thinking_delta' && block?.type === 'thinking') block.thinking += delta.thinking
        else if (delta.type === 'signature_delta' && block?.type === 'thinking') block.signature += delta.signature
        else if (delta.type === 'input_json_delta') json.set(event.index, (json.get(event.index) ?? '') + delta.partial_json)
        break
      }
      case 'content_block_stop': {
        const block = message.content[event.index]
        if (block?.type === 'tool_use' || block?.type === 'server_tool_use') block.input = parseOr(json.get(event.index) ?? '{}')
        break
      }
      case 'message_delta':
        message.stop_reason = event.delta.stop_reason
        message.stop_sequence = event.delta.stop_sequence
        message.usage.output_tokens = event.usage.output_tokens
        if (event.usage.input_tokens !== null) message.usage.input_tokens = event.usage.input_tokens
        if (event.usage.server_tool_use) message.usage.server_tool_use = event.usage.server_tool_use
        break
      case 'message_stop':
        break
    }
  }
  if (message === undefined) throw new Error('the stream had no message_start')
  return message
}

/** A rough token count (four characters a token), for usage a script leaves out. */
export function estimateTokens(text: string | undefined): number {
  return Math.ceil((text?.length ?? 0) / 4)
}

/** The same count for a value sent as JSON, each image or PDF in it counted as the API counts one (roughly), not by its base64. */
export function estimateJsonTokens(value: unknown): number {
  return Math.ceil(weighedJsonLength(value) / 4)
}

function start(index: number, content_block: RawContentBlockStartEvent['content_block']): RawMessageStreamEvent {
  return { type: 'content_block_start', index, content_block }
}

// Cut by code point so no chunk ends inside a surrogate pair.
function chunks(text: string): string[] {
  const chars = Array.from(text)
  const out: string[] = []
  for (let i = 0; i < chars.length; i += CHUNK_CHARS) out.push(chars.slice(i, i + CHUNK_CHARS).join(''))
  return out
}

function blockText(block: ScriptBlock): string {
  if ('text' in block) return block.text
  if ('thinking' in block) return block.thinking
  if ('tool_use' in block) return block.tool_use.name + JSON.stringify(block.tool_use.input)
  if ('server_tool_use' in block) return JSON.stringify(block.server_tool_use.input)
  // The API does not count a search's results as output: they are its server's, not the model's.
  if ('web_search_tool_result' in block) return ''
  return block.tool_use_raw.name + block.tool_use_raw.json
}

function parseOr(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}
