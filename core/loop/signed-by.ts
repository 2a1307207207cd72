import type { MessageParam } from '@anthropic-ai/sdk/resources/messages'

/**
 * The model that wrote each assistant message of a history. A thinking block's signature holds
 * only for the model that made it: sent to another one it is refused ("Invalid `signature` in
 * `thinking` block"), so after a switch (`/model`, setModel, the fallback model, a resume on
 * another model) the requests leave out the thinking other models wrote, as Claude Code's do.
 * Keyed by the message object: a copy a mod made is not known, and keeps its thinking.
 */
const writers = new WeakMap<MessageParam, string>()

export function noteWriter(message: MessageParam, model: string): void {
  writers.set(message, model)
}

export function writerOf(message: MessageParam): string | undefined {
  return writers.get(message)
}

/** `messages` as `model` may be sent them: without the thinking blocks another model wrote. */
export function thinkingFor(messages: MessageParam[], model: string): MessageParam[] {
  const own = sameModel(model)
  const foreign = (m: MessageParam) => {
    const writer = writers.get(m)
    return m.role === 'assistant' && writer !== undefined && !own(writer) && typeof m.content !== 'string' && m.content.some(isThinking)
  }
  // Every request of a round goes through here: a history with nothing to drop is sent as it is, not copied.
  if (!messages.some(foreign)) return messages
  return messages.flatMap((m): MessageParam[] => {
    if (!foreign(m)) return [m]
    const content = (m.content as Exclude<MessageParam['content'], string>).filter((b) => !isThinking(b))
    return content.length > 0 ? [{ role: 'assistant', content }] : []
  })
}

const isThinking = (b: { type: string }) => b.type === 'thinking' || b.type === 'redacted_thinking'

/** A response names the model's dated id (claude-sonnet-4-5-20250929) where the request named its alias. */
function sameModel(model: string): (other: string) => boolean {
  const base = (id: string) => id.toLowerCase().replace(/\[[^\]]*\]$/, '').replace(/-\d{8}(?:-v\d+(?::\d+)?)?$/, '')
  const mine = base(model)
  return (other) => base(other) === mine
}
