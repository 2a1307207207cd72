import type { TextBlockParam } from '@anthropic-ai/sdk/resources/messages'

/** A `$.session.append` message's content as text blocks, or undefined if it is anything else. */
export function textBlocks(content: unknown): TextBlockParam[] | undefined {
  if (typeof content === 'string') return content === '' ? undefined : [{ type: 'text', text: content }]
  if (!Array.isArray(content) || content.length === 0) return undefined
  const ok = content.every((b) => b?.type === 'text' && typeof b.text === 'string' && b.text !== '')
  return ok ? content.map((b: TextBlockParam) => ({ type: 'text', text: b.text })) : undefined
}
