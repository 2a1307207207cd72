import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages'
import { uuid, type SDKMessage, type SDKPartialMessage } from '../core/loop/messages.js'
import type { Session } from '../core/loop/session.js'

/** A text block being streamed while something handles message.display: its lines are held until they complete. */
interface HeldBlock {
  messageId: string
  batches: number
  /** Text received and not yet passed on: the start of an unfinished line. */
  pending: string
  original: string
  shown: string
}

/**
 * `message.display` for one turn's stream: what the caller sees of the main loop's assistant text
 * passes through it, already recorded, so a rewrite changes only what is shown (spec
 * settings-hooks §2.8). Without streamed deltas it runs once per text block, after the block is
 * complete. With them (includePartialMessages, the terminal) a text block's deltas are held and
 * passed on in batches of completed lines — each batch through message.display, the last with
 * `final` — so the deltas carry the rewritten text too. The result's text follows when it is the
 * last response's text.
 */
export class Display {
  private messageId: string | undefined
  private originals: string[] = []
  private shown: string[] = []
  /** Held text blocks of the response that streams, by block index. */
  private readonly held = new Map<number, HeldBlock>()
  /** Blocks whose stream ended, waiting for their assistant message. */
  private readonly streamed: HeldBlock[] = []

  constructor(private readonly session: Session) {}

  /** What the caller sees for one message: itself, rewritten, held back (none), or a held batch before it. */
  async show(m: SDKMessage): Promise<SDKMessage[]> {
    if (m.type === 'result') return [this.changed() && m.result === this.originals.join('') ? { ...m, result: this.shown.join('') } : m]
    if (m.type === 'stream_event') return m.parent_tool_use_id ? [m] : this.streamEvent(m)
    if (m.type !== 'assistant' || m.parent_tool_use_id) return [m]
    if (m.message.id !== this.messageId) {
      this.messageId = m.message.id
      this.originals = []
      this.shown = []
    }
    const block = m.message.content[0]
    if (block?.type !== 'text') return [m]
    const i = this.streamed.findIndex((b) => b.original === block.text)
    let text = block.text
    if (i >= 0) text = this.streamed.splice(i, 1)[0]!.shown
    else if (this.session.host.bus.has('message.display')) text = await this.emit(m.uuid, 0, true, block.text)
    this.originals.push(block.text)
    this.shown.push(text)
    return [text === block.text ? m : { ...m, message: { ...m.message, content: [{ ...block, text }] } }]
  }

  private async streamEvent(m: SDKPartialMessage): Promise<SDKMessage[]> {
    const ev = m.event
    if (ev.type === 'message_start') this.held.clear()
    if (ev.type === 'content_block_start' && ev.content_block.type === 'text' && this.session.host.bus.has('message.display')) {
      this.held.set(ev.index, { messageId: uuid(), batches: 0, pending: '', original: '', shown: '' })
      return [m]
    }
    if (ev.type !== 'content_block_delta' && ev.type !== 'content_block_stop') return [m]
    const block = this.held.get(ev.index)
    if (!block) return [m]
    if (ev.type === 'content_block_delta') {
      if (ev.delta.type !== 'text_delta') return [m]
      block.original += ev.delta.text
      block.pending += ev.delta.text
      const cut = block.pending.lastIndexOf('\n') + 1
      if (cut === 0) return []
      const lines = block.pending.slice(0, cut)
      block.pending = block.pending.slice(cut)
      const text = await this.batch(block, lines, false)
      return text ? [{ ...m, event: { ...ev, delta: { ...ev.delta, text } } }] : []
    }
    // The block ended: the rest, possibly empty or mid-line, is the final batch.
    this.held.delete(ev.index)
    const rest = block.pending
    block.pending = ''
    const text = await this.batch(block, rest, true)
    this.streamed.push(block)
    if (!text) return [m]
    const delta = { type: 'content_block_delta', index: ev.index, delta: { type: 'text_delta', text } } as RawMessageStreamEvent
    return [this.session.stamp({ type: 'stream_event' as const, event: delta, parent_tool_use_id: null }), m]
  }

  private async batch(block: HeldBlock, delta: string, final: boolean): Promise<string> {
    const text = await this.emit(block.messageId, block.batches++, final, delta)
    block.shown += text
    return text
  }

  // A handler that fails is skipped by the bus: the text beneath it (the original, at the bottom) is shown.
  private async emit(messageId: string, index: number, final: boolean, delta: string): Promise<string> {
    return (await this.session.host.bus.emit('message.display', { turnId: this.session.turnId ?? '', messageId, index, final, delta })).text
  }

  private changed(): boolean {
    return this.shown.some((s, i) => s !== this.originals[i])
  }
}
