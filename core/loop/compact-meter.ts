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
 *
 * Every message is measured once (see `messageChars`) and the sent prefix's size is carried from
 * request to request, so the work per request follows what is new, not the length of the history.
 */
export interface ContextMeter {
  /**
   * The last request: tokens it held (the API's count), how many history messages it sent, their
   * content in characters, and the last of them (to tell the same history from a replaced one).
   */
  reported: { tokens: number; count: number; chars: number; last: MessageParam | undefined } | undefined
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

const sizes = new WeakMap<MessageParam, { content: MessageParam['content']; blocks: number; chars: number }>()

/**
 * A message's content, serialized, in characters — computed once per message. The figure stands
 * while the message holds the same content (the same string, or the same array with as many
 * blocks): a message given new content or more blocks is measured again. Replacing a block inside
 * the array in place is invisible here, so whoever does it (microcompaction) calls `forget`.
 */
export function messageChars(m: MessageParam): number {
  const content = m.content
  const blocks = typeof content === 'string' ? -1 : content.length
  const known = sizes.get(m)
  if (known && known.content === content && known.blocks === blocks) return known.chars
  const chars = JSON.stringify(content).length
  sizes.set(m, { content, blocks, chars })
  return chars
}

const forget = (m: MessageParam): void => { sizes.delete(m) }

function charsOf(messages: readonly MessageParam[], from = 0): number {
  let chars = 0
  for (let i = from; i < messages.length; i++) chars += messageChars(messages[i]!)
  return chars
}

export function estimateTokens(messages: readonly MessageParam[], from = 0): number {
  return Math.ceil(charsOf(messages, from) / CHARS_PER_TOKEN)
}

/** The last request's figure still describes the start of `messages` (not replaced by a compaction or /clear since). */
function covers(r: ContextMeter['reported'], messages: readonly MessageParam[]): r is NonNullable<ContextMeter['reported']> {
  return r !== undefined && r.count <= messages.length && (r.count === 0 || messages[r.count - 1] === r.last)
}

/** The context the next request would send, in tokens. */
export function contextTokens(session: Session): number {
  const m = meterOf(session)
  const { messages } = session
  if (covers(m.reported, messages)) return m.reported.tokens + estimateTokens(messages, m.reported.count)
  return m.overhead + estimateTokens(messages)
}

/** After a response: the API's count of the request replaces the estimate. */
export function noteResponse(session: Session, sent: readonly MessageParam[], usage: Usage): void {
  const tokens = usage.input_tokens + usage.cache_read_input_tokens + usage.cache_creation_input_tokens
  const m = meterOf(session)
  m.sinceCompact++
  m.reactiveTried = false
  if (tokens <= 0) return
  const before = m.reported
  const chars = covers(before, sent) ? before.chars + charsOf(sent, before.count) : charsOf(sent)
  m.reported = { tokens, count: sent.length, chars, last: sent.at(-1) }
  m.overhead = Math.max(0, tokens - Math.ceil(chars / CHARS_PER_TOKEN))
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
  // Each changed message is measured before and after (its old size is known already): no result is serialized to be dropped.
  const before = new Map<number, number>()
  for (const { content, index, message } of found.slice(0, Math.max(0, found.length - rule.keepRecent))) {
    const b = content[index] as Extract<ContentBlockParam, { type: 'tool_result' }>
    if (b.content === rule.marker) continue
    if (!before.has(message)) before.set(message, messageChars(messages[message]!))
    content[index] = { ...b, content: rule.marker }
  }
  let saved = 0
  let savedReported = 0
  for (const [message, chars] of before) {
    const m = messages[message]!
    forget(m)
    const cut = Math.max(0, chars - messageChars(m))
    saved += cut
    // Messages past the reported ones are estimated afresh; only the reported figure needs the cut.
    if (meter.reported && message < meter.reported.count) savedReported += cut
  }
  const r = meter.reported
  if (r && savedReported > 0) {
    meter.reported = { ...r, tokens: Math.max(0, r.tokens - Math.floor(savedReported / CHARS_PER_TOKEN)), chars: Math.max(0, r.chars - savedReported) }
  }
  return Math.floor(saved / CHARS_PER_TOKEN)
}
