import type { TextBlockParam } from '@anthropic-ai/sdk/resources/messages'
import type { Session } from './session.js'
import { joinHistory } from './unshown.js'

/**
 * Before a request of the main conversation: the user-role rows mods appended since the last one
 * (`$.session.append` of a `user` message) join the history, once. Held until then because a
 * row added while the model's tool calls wait for their results would part them from their calls.
 */
export async function deliverAppended(session: Session): Promise<void> {
  const root = session.root
  if (session.agent || root.appended.length === 0) return
  await joinHistory(session, root.appended.splice(0))
}

/** A `$.session.append` message's content as text blocks, or undefined if it is anything else. */
export function textBlocks(content: unknown): TextBlockParam[] | undefined {
  if (typeof content === 'string') return content === '' ? undefined : [{ type: 'text', text: content }]
  if (!Array.isArray(content) || content.length === 0) return undefined
  const ok = content.every((b) => b?.type === 'text' && typeof b.text === 'string' && b.text !== '')
  return ok ? content.map((b: TextBlockParam) => ({ type: 'text', text: b.text })) : undefined
}
