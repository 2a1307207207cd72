import type { ContentBlockParam, MessageParam } from '@anthropic-ai/sdk/resources/messages'
import type { Usage } from '../events/types.js'
import type { Session } from './session.js'

/**
 * How big the conversation is, in tokens, as the next request would send it. The last response
 * tells exactly how many input tokens its request held (input + cache reads + cache writes);
 * what joined the history since (that response, tool results, prompts) is estimated at four
 * characters a token of its serialized content — the usual ratio for English and code, and the
 * one the fake Messages API server uses. The estimate never compounds: every response replaces
 * it with the API's figure. `overhead` is the system prompt and tool schemas, learned from the
 * same figure, so a history rebuilt after compaction is measured with them.
 */
export interface ContextMeter {
  /** Tokens the last request held, and how many history messages it sent. */
  reported: { tokens: number; count: number } | undefined
  overhead: number
  /** Requests sent since the last successful compaction. */
  sinceCompact: number
  /** Auto compactions in a row that failed; auto compaction stops at three. */
  failures: number
  /** Compactions in a row after which the context refilled to the limit at once. */
  refills: number
  /** Why auto compaction is off for this session, once a breaker tripped. */
  autoOff: string | undefined
  /** A compaction already answered a prompt-too-long error since the last good response. */
  reactiveTried: boolean
  /** A compaction is running (no second one starts meanwhile). */
  running: boolean
  /** Where microcompaction looks from: before it, every result it may clear is cleared. */
  microFrom: number
}

const meters = new WeakMap<Session, ContextMeter>()

export function meterOf(session: Session): ContextMeter {
  let m = meters.get(session)
  if (!m) {
    m = { reported: undefined, overhead: 0, sinceCompact: Number.POSITIVE_INFINITY, failures: 0, refills: 0, autoOff: undefined, reactiveTried: false, running: false, microFrom: 0 }
    meters.set(session, m)
  }
  return m
}

export const CHARS_PER_TOKEN = 4

export function estimateTokens(messages: readonly MessageParam[], from = 0): number {
  let chars = 0
  for (let i = from; i < messages.length; i++) chars += JSON.stringify(messages[i]!.content).length
  return Math.ceil(chars / CHARS_PER_TOKEN)
}

/** The context the next request would send, in tokens. */
export function contextTokens(session: Session): number {
  const m = meterOf(session)
  const { messages } = session
  if (m.reported && m.reported.count <= messages.length) return m.reported.tokens + estimateTokens(messages, m.reported.count)
  return m.overhead + estimateTokens(messages)
}

/** After a response: the API's count of the request replaces the estimate. */
export function noteResponse(session: Session, sent: readonly MessageParam[], usage: Usage): void {
  const tokens = usage.input_tokens + usage.cache_read_input_tokens + usage.cache_creation_input_tokens
  const m = meterOf(session)
  m.sinceCompact++
  m.reactiveTried = false
  if (tokens <= 0) return
  m.reported = { tokens, count: sent.length }
  m.overhead = Math.max(0, tokens - estimateTokens(sent))
}

/** The history was replaced: no reported figure covers it any more. */
export function resetAfterCompaction(session: Session): void {
  const m = meterOf(session)
  m.reported = undefined
  m.sinceCompact = 0
  m.microFrom = 0
}

/** What a microcompaction pass replaces: results of these tools older than the `keepRecent` newest. */
export interface MicrocompactRule {
  atTokens: number
  keepRecent: number
  tools: readonly string[]
  marker: string
}

/**
 * Replaces the content of old tool results with a short marker, in the history the next request
 * sends (the transcript keeps them whole). Result blocks are replaced, never mutated: the
 * originals were also handed to the caller's stream. Returns the tokens saved (estimated).
 */
export function microcompact(session: Session, rule: MicrocompactRule): number {
  const { messages } = session
  const meter = meterOf(session)
  const tools = new Set(rule.tools)
  const names = new Map<string, string>()
  const found: { content: ContentBlockParam[]; index: number; message: number }[] = []
  for (let message = Math.min(meter.microFrom, messages.length); message < messages.length; message++) {
    const m = messages[message]!
    if (typeof m.content === 'string') continue
    for (let index = 0; index < m.content.length; index++) {
      const b = m.content[index]!
      if (b.type === 'tool_use') names.set(b.id, b.name)
      else if (b.type === 'tool_result' && tools.has(names.get(b.tool_use_id) ?? '')) found.push({ content: m.content, index, message })
    }
  }
  const kept = found[found.length - rule.keepRecent]
  // Next time, start at the response whose call the oldest kept result answers.
  if (rule.keepRecent === 0) meter.microFrom = messages.length
  else if (kept) meter.microFrom = Math.max(meter.microFrom, kept.message - 1)
  let saved = 0
  let savedReported = 0
  for (const { content, index, message } of found.slice(0, Math.max(0, found.length - rule.keepRecent))) {
    const b = content[index] as Extract<ContentBlockParam, { type: 'tool_result' }>
    if (b.content === rule.marker) continue
    const chars = Math.max(0, JSON.stringify(b.content ?? '').length - rule.marker.length)
    content[index] = { ...b, content: rule.marker }
    saved += chars
    // Messages past the reported ones are estimated afresh; only the reported figure needs the cut.
    if (meter.reported && message < meter.reported.count) savedReported += chars
  }
  if (meter.reported && savedReported > 0) {
    meter.reported = { tokens: Math.max(0, meter.reported.tokens - Math.floor(savedReported / CHARS_PER_TOKEN)), count: meter.reported.count }
  }
  return Math.floor(saved / CHARS_PER_TOKEN)
}
