import type { SDKUserMessage } from '../../core/loop/messages.js'

/** A streaming input a test feeds by hand: `send` queues a user message (with any fields a caller may set, e.g. uuid or priority). */
export function channel() {
  const items: SDKUserMessage[] = []
  let wake: (() => void) | undefined
  let closed = false
  const send = (text: string, extra: Partial<SDKUserMessage> = {}) => {
    items.push({ type: 'user', message: { role: 'user', content: text }, parent_tool_use_id: null, ...extra })
    wake?.()
  }
  const close = () => { closed = true; wake?.() }
  async function* iterate(): AsyncGenerator<SDKUserMessage> {
    for (;;) {
      while (items.length) yield items.shift()!
      if (closed) return
      await new Promise<void>((r) => { wake = r })
    }
  }
  return { send, close, input: iterate() }
}
