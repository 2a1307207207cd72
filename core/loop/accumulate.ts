import type { ContentBlock } from '@anthropic-ai/sdk/resources/messages'
import type { StopReason, TurnStepChunk, Usage } from '../events/types.js'
import { readUsage, type RawUsage } from '../model/usage.js'
import { describeError } from '../errors.js'

type Citation = NonNullable<Extract<ContentBlock, { type: 'text' }>['citations']>[number]

type Open =
  | { type: 'text'; text: string; citations?: Citation[] }
  | { type: 'thinking'; text: string; signature: string }
  | { type: 'tool_use'; id: string; name: string; json: string }
  // A server tool's call (web search) streams its input as JSON like a tool_use.
  | { type: 'other'; block: ContentBlock; json?: string }

/** A finished content block; a tool_use whose JSON does not parse carries `malformed`. */
export interface Completed {
  index: number
  block: ContentBlock
  malformed?: string
}

/**
 * Builds content blocks from the chunks that leave the outermost `turn.step` handler — what
 * leaves the chain is what is shown and recorded. A block completes at its `block_stop`.
 */
export class Accumulator {
  private readonly open = new Map<number, Open>()
  readonly completed: Completed[] = []
  stopReason: StopReason = null
  usage: Usage | undefined
  model: string | undefined
  messageId: string | undefined
  sawStop = false

  push(chunk: TurnStepChunk): Completed | undefined {
    switch (chunk.kind) {
      case 'text': {
        const b = this.ensure(chunk.index, 'text') as Extract<Open, { type: 'text' }>
        b.text += chunk.text
        return undefined
      }
      case 'thinking': {
        const b = this.ensure(chunk.index, 'thinking') as Extract<Open, { type: 'thinking' }>
        b.text += chunk.text
        if (chunk.signature) b.signature += chunk.signature
        return undefined
      }
      case 'tool':
        this.open.set(chunk.index, { type: 'tool_use', id: chunk.id, name: chunk.name, json: '' })
        return undefined
      case 'input': {
        const b = this.open.get(chunk.index)
        if (b?.type === 'tool_use' || b?.type === 'other') b.json = (b.json ?? '') + chunk.json
        return undefined
      }
      case 'block_stop':
        return this.close(chunk.index)
      case 'stop':
        this.stopReason = chunk.stopReason
        this.usage = chunk.usage
        this.sawStop = true
        return undefined
      case 'engine':
        this.engine(chunk.ref)
        return undefined
    }
  }

  /** Blocks still open when the stream ended (a cut stream or a handler that never closed them). */
  closeAll(): Completed[] {
    return [...this.open.keys()].sort((a, b) => a - b).map((i) => this.close(i)).filter((c): c is Completed => c !== undefined)
  }

  /**
   * The text blocks still open, closed with what they hold so far (an interrupted answer keeps
   * what the model had said, as Claude Code keeps it); the other open blocks are dropped with them:
   * a half-written tool call cannot run, and a thinking block without its signature cannot be sent back.
   */
  closeText(): Completed[] {
    const texts = [...this.open].filter(([, b]) => b.type === 'text' && b.text !== '').map(([i]) => i).sort((a, b) => a - b)
    const done = texts.map((i) => this.close(i)).filter((c): c is Completed => c !== undefined)
    this.open.clear()
    return done
  }

  /** Blocks left open, dropped: what a cut stream loses. */
  discardOpen(): number {
    const n = this.open.size
    this.open.clear()
    return n
  }

  private engine(ref: unknown): void {
    const ev = ref as {
      type?: string; index?: number; content_block?: ContentBlock; delta?: { type?: string; citation?: Citation }
      message?: { id?: string; model?: string; usage?: RawUsage }; usage?: RawUsage
    }
    if (ev.type === 'message_start') {
      // A retried stream starts over: what the cut attempt left open is gone.
      this.open.clear()
      this.model = ev.message?.model
      this.messageId = ev.message?.id
      // The blocks go out before message_stop: they carry the usage known so far, as the API's own messages do.
      this.usage = ev.message?.usage ? readUsage(ev.message.usage) : undefined
    }
    if (ev.type === 'message_delta' && ev.usage) this.usage = readUsage(ev.usage, this.usage)
    if (ev.type === 'content_block_delta' && ev.delta?.type === 'citations_delta' && ev.delta.citation && ev.index !== undefined) {
      const b = this.open.get(ev.index)
      // The sources the text cites go back to the API with it, as the response gave them.
      if (b?.type === 'text') (b.citations ??= []).push(ev.delta.citation)
    }
    if (ev.type !== 'content_block_start' || ev.index === undefined || !ev.content_block) return
    const cb = ev.content_block
    if (cb.type === 'text') this.open.set(ev.index, { type: 'text', text: cb.text ?? '', ...(cb.citations?.length ? { citations: [...cb.citations] } : {}) })
    else if (cb.type === 'thinking') this.open.set(ev.index, { type: 'thinking', text: cb.thinking ?? '', signature: cb.signature ?? '' })
    else this.open.set(ev.index, { type: 'other', block: cb })
  }

  private ensure(index: number, type: 'text' | 'thinking'): Open {
    let b = this.open.get(index)
    if (!b) {
      b = type === 'text' ? { type, text: '' } : { type, text: '', signature: '' }
      this.open.set(index, b)
    }
    return b
  }

  private close(index: number): Completed | undefined {
    const b = this.open.get(index)
    if (!b) return undefined
    this.open.delete(index)
    let done: Completed
    if (b.type === 'text') done = { index, block: { type: 'text', text: b.text, citations: b.citations ?? null } as ContentBlock }
    else if (b.type === 'thinking') done = { index, block: { type: 'thinking', thinking: b.text, signature: b.signature } as ContentBlock }
    else if (b.type === 'other') done = { index, block: withInput(b.block, b.json) }
    else {
      let input: unknown = {}
      let malformed: string | undefined
      if (b.json.trim() !== '') {
        try {
          input = JSON.parse(b.json)
          if (typeof input !== 'object' || input === null || Array.isArray(input)) malformed = `tool input is not a JSON object: ${b.json.slice(0, 200)}`
        } catch (err) {
          malformed = `tool input is not valid JSON (${describeError(err)}): ${b.json.slice(0, 200)}`
        }
      }
      done = { index, block: { type: 'tool_use', id: b.id, name: b.name, input: malformed ? {} : input } as ContentBlock, malformed }
    }
    this.completed.push(done)
    return done
  }
}

/** A server tool's call with the input the API streamed for it (the API's own JSON: it parses). */
function withInput(block: ContentBlock, json: string | undefined): ContentBlock {
  if (json === undefined || json.trim() === '') return block
  try {
    return { ...block, input: JSON.parse(json) } as ContentBlock
  } catch {
    return block
  }
}
