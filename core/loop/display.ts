import type { SDKMessage } from './messages.js'
import type { Session } from './session.js'

/**
 * `message.display` for one turn's stream: each completed assistant text block of the main loop,
 * already recorded, passes through it before the caller sees it, so a rewrite changes only what
 * is shown (spec settings-hooks §2.8: headless, one batch per message). The result's text
 * follows when it is the last response's text.
 */
export class Display {
  private messageId: string | undefined
  private originals: string[] = []
  private shown: string[] = []

  constructor(private readonly session: Session) {}

  async show(m: SDKMessage): Promise<SDKMessage> {
    if (m.type === 'result') return this.changed() && m.result === this.originals.join('') ? { ...m, result: this.shown.join('') } : m
    if (m.type !== 'assistant' || m.parent_tool_use_id) return m
    if (m.message.id !== this.messageId) {
      this.messageId = m.message.id
      this.originals = []
      this.shown = []
    }
    const block = m.message.content[0]
    const { bus } = this.session.host
    if (block?.type !== 'text' || !bus.has('message.display')) return m
    let text = block.text
    try {
      text = (await bus.emit('message.display', { turnId: this.session.turnId ?? '', messageId: m.uuid, index: 0, final: true, delta: block.text })).text
    } catch {
      // A display rewrite that fails shows the original.
    }
    this.originals.push(block.text)
    this.shown.push(text)
    return text === block.text ? m : { ...m, message: { ...m.message, content: [{ ...block, text }] } }
  }

  private changed(): boolean {
    return this.shown.some((s, i) => s !== this.originals[i])
  }
}
