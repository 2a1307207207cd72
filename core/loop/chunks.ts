import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages'
import type { StopReason, TurnStepChunk, TurnStepResult, Usage } from '../events/types.js'
import { zeroUsage } from './messages.js'
import { readUsage } from '../model/usage.js'

/**
 * The core of `turn.step`: the model's raw stream events as chunks. Text, thinking and tool
 * input become typed chunks a handler can rewrite; everything else travels as an opaque
 * `engine` chunk carrying the raw event.
 */
export async function* chunksFrom(
  events: AsyncIterable<RawMessageStreamEvent>,
  ids: { turnId: string; index: number },
): AsyncGenerator<TurnStepChunk, TurnStepResult, undefined> {
  let model = ''
  let usage: Usage = zeroUsage()
  let stopReason: StopReason = null
  let answer = ''
  const tools = new Map<number, { id: string; name: string; json: string }>()
  for await (const ev of events) {
    switch (ev.type) {
      case 'message_start':
        // A retried stream starts over (spec §3.7: a cut before any completed block is retried).
        answer = ''
        tools.clear()
        model = ev.message.model
        usage = readUsage(ev.message.usage)
        yield { kind: 'engine', ref: ev }
        break
      case 'content_block_start':
        if (ev.content_block.type === 'tool_use') {
          tools.set(ev.index, { id: ev.content_block.id, name: ev.content_block.name, json: '' })
          yield { kind: 'tool', index: ev.index, id: ev.content_block.id, name: ev.content_block.name }
        } else {
          yield { kind: 'engine', ref: ev }
        }
        break
      case 'content_block_delta': {
        const d = ev.delta
        if (d.type === 'text_delta') {
          answer += d.text
          yield { kind: 'text', index: ev.index, text: d.text }
        } else if (d.type === 'thinking_delta') yield { kind: 'thinking', index: ev.index, text: d.thinking }
        else if (d.type === 'signature_delta') yield { kind: 'thinking', index: ev.index, text: '', signature: d.signature }
        else if (d.type === 'input_json_delta') {
          const t = tools.get(ev.index)
          if (t) t.json += d.partial_json
          yield { kind: 'input', index: ev.index, json: d.partial_json }
        } else yield { kind: 'engine', ref: ev }
        break
      }
      case 'content_block_stop':
        yield { kind: 'block_stop', index: ev.index }
        break
      case 'message_delta':
        stopReason = (ev.delta.stop_reason ?? null) as StopReason
        if (ev.usage) usage = readUsage(ev.usage, usage)
        yield { kind: 'engine', ref: ev }
        break
      case 'message_stop':
        yield { kind: 'stop', stopReason, usage: { ...usage } }
        break
      default:
        yield { kind: 'engine', ref: ev }
    }
  }
  return {
    ...ids,
    answer,
    toolUses: [...tools.values()].map((t) => ({ id: t.id, name: t.name, input: parseOr(t.json) })),
    stopReason,
    usage: { ...usage, model },
  }
}


function parseOr(json: string): unknown {
  if (json.trim() === '') return {}
  try {
    return JSON.parse(json)
  } catch {
    return json
  }
}

/** The raw stream event a chunk stands for, for `stream_event` messages (rewritten chunks show as rewritten). */
export function eventOf(chunk: TurnStepChunk): RawMessageStreamEvent | undefined {
  switch (chunk.kind) {
    case 'engine':
      return chunk.ref as RawMessageStreamEvent
    case 'text':
      return { type: 'content_block_delta', index: chunk.index, delta: { type: 'text_delta', text: chunk.text } }
    case 'thinking':
      return chunk.signature !== undefined
        ? { type: 'content_block_delta', index: chunk.index, delta: { type: 'signature_delta', signature: chunk.signature } }
        : { type: 'content_block_delta', index: chunk.index, delta: { type: 'thinking_delta', thinking: chunk.text } }
    case 'tool':
      return { type: 'content_block_start', index: chunk.index, content_block: { type: 'tool_use', id: chunk.id, name: chunk.name, input: {} } } as RawMessageStreamEvent
    case 'input':
      return { type: 'content_block_delta', index: chunk.index, delta: { type: 'input_json_delta', partial_json: chunk.json } }
    case 'block_stop':
      return { type: 'content_block_stop', index: chunk.index }
    case 'stop':
      return { type: 'message_stop' }
  }
}
