import type { SDKUserMessage } from '../../core/loop/messages.js'

/** The prompts typed into one session, as the streaming input `query()` reads. */
export class InputChannel implements AsyncIterable<SDKUserMessage> {
  private readonly items: SDKUserMessage[] = []
  private wake: (() => void) | undefined
  private ended = false

  push(text: string, priority: 'now' | 'next' | 'later'): void {
    this.items.push({ type: 'user', message: { role: 'user', content: text }, parent_tool_use_id: null, priority })
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
