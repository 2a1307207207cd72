import type { MessageParam } from '@anthropic-ai/sdk/resources/messages'
import type { Usage } from '../events/types.js'
import { weighedJsonLength } from '../model/media-weight.js'

export const CHARS_PER_TOKEN = 4

/**
 * The last request: tokens it held (the API's count), how many history messages it sent, their
 * content in characters, and the last of them (to tell the same history from a replaced one).
 */
interface Reported { tokens: number; count: number; chars: number; last: MessageParam | undefined }

/**
 * How big a conversation is, in tokens, as the next request would send it. The last response
 * tells exactly how many input tokens its request held (input + cache reads + cache writes);
 * what joined the history since (that response, tool results, prompts) is estimated at four
 * characters a token of its serialized content — the usual ratio for English and code, and the
 * one the fake Messages API server uses — an image or a PDF at what the API counts for it (see
 * weighedJsonLength). The estimate never compounds: every response replaces
 * it with the API's figure. `overhead` is the system prompt and tool schemas, learned from the
 * same figure, so a history rebuilt after compaction is measured with them.
 *
 * Every message is measured once (see `messageChars`) and the sent prefix's size is carried from
 * request to request, so the work per request follows what is new, not the length of the history.
 * One meter per session, over that session's history array.
 */
export class ContextMeter {
  overhead = 0
  private reported: Reported | undefined
  private readonly sizes = new WeakMap<MessageParam, { content: MessageParam['content']; blocks: number; chars: number }>()

  constructor(private readonly messages: readonly MessageParam[]) {}

  /** The context the next request would send, in tokens. */
  tokens(): number {
    const { messages, reported: r } = this
    if (this.covers(r, messages)) return r.tokens + this.estimate(messages, r.count)
    return this.overhead + this.estimate(messages)
  }

  /** After a response: the API's count of the request replaces the estimate. */
  noteResponse(sent: readonly MessageParam[], usage: Usage): void {
    const tokens = usage.input_tokens + usage.cache_read_input_tokens + usage.cache_creation_input_tokens
    if (tokens <= 0) return
    const before = this.reported
    const chars = this.covers(before, sent) ? before.chars + this.charsOf(sent, before.count) : this.charsOf(sent)
    this.reported = { tokens, count: sent.length, chars, last: sent.at(-1) }
    this.overhead = Math.max(0, tokens - Math.ceil(chars / CHARS_PER_TOKEN))
  }

  /** The history was replaced by a compaction: no reported figure covers it any more. */
  reset(): void {
    this.reported = undefined
  }

  /**
   * The history was rewritten in place (a mod cut content out of it): the reported figure loses
   * what the messages it counted lost, position by position. A history now shorter than what was
   * counted is measured afresh.
   */
  rewritten(before: readonly MessageParam[]): void {
    const r = this.reported
    const after = this.messages
    if (!this.covers(r, before)) return
    if (after.length < r.count) return this.reset()
    let cut = 0
    for (let i = 0; i < r.count; i++) if (before[i] !== after[i]) cut += this.messageChars(before[i]!) - this.messageChars(after[i]!)
    this.reported = { tokens: Math.max(0, r.tokens - Math.floor(cut / CHARS_PER_TOKEN)), count: r.count, chars: Math.max(0, r.chars - cut), last: after[r.count - 1] }
  }

  /**
   * A message's content, serialized, in characters — computed once per message. The figure stands
   * while the message holds the same content (the same string, or the same array with as many
   * blocks): a message given new content or more blocks is measured again.
   */
  messageChars(m: MessageParam): number {
    const content = m.content
    const blocks = typeof content === 'string' ? -1 : content.length
    const known = this.sizes.get(m)
    if (known && known.content === content && known.blocks === blocks) return known.chars
    const chars = weighedJsonLength(content)
    this.sizes.set(m, { content, blocks, chars })
    return chars
  }

  private charsOf(messages: readonly MessageParam[], from = 0): number {
    let chars = 0
    for (let i = from; i < messages.length; i++) chars += this.messageChars(messages[i]!)
    return chars
  }

  private estimate(messages: readonly MessageParam[], from = 0): number {
    return Math.ceil(this.charsOf(messages, from) / CHARS_PER_TOKEN)
  }

  /** The last request's figure still describes the start of `messages` (not replaced by a compaction or /clear since). */
  private covers(r: Reported | undefined, messages: readonly MessageParam[]): r is Reported {
    return r !== undefined && r.count <= messages.length && (r.count === 0 || messages[r.count - 1] === r.last)
  }
}
