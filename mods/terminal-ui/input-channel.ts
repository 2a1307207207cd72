import type { SDKUserMessage } from '../../core/loop/messages.js'

/** The prompts typed into one session (or sent by an editor), as the streaming input `query()` reads. */
export class InputChannel implements AsyncIterable<SDKUserMessage> {
  private readonly items: SDKUserMessage[] = []
  private wake: (() => void) | undefined
  private ended = false

  push(text: string, priority: 'now' | 'next' | 'later'): void {
    this.send({ type: 'user', message: { role: 'user', content: text }, parent_tool_use_id: null, priority })
  }

  /** A whole user message (content blocks: images, context), as a front end other than the terminal builds it. */
  send(message: SDKUserMessage): void {
    this.items.push(message)
    this.notify()
  }

  end(): void {
    this.ended = true
    this.notify()
  }

  async *[Symbol.asyncIterator](): AsyncIterator<SDKUserMessage> {
    for (;;) {
      while (this.items.length > 0) yield this.items.shift()!
      if (this.ended) return
      await new Promise<void>((resolve) => { this.wake = resolve })
    }
  }

  private notify(): void {
    const w = this.wake
    this.wake = undefined
    w?.()
  }
}
