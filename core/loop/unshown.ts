import type { ContentBlockParam } from '@anthropic-ai/sdk/resources/messages'
import type { Session } from './session.js'

/**
 * Raises session.message for history content the caller's stream does not carry (a subagent's
 * prompt, recovery nudges, context beside tool results), so that a transcript holds exactly what
 * the next request sends. `synthetic` marks runtime additions, which join the user message before them.
 */
export async function recordUnshown(session: Session, content: ContentBlockParam[], synthetic: boolean): Promise<void> {
  const { bus } = session.host
  if (!bus.has('session.message')) return
  const message = session.stamp({
    type: 'user' as const, message: { role: 'user' as const, content }, parent_tool_use_id: session.agent?.parentToolUseId ?? null,
    ...(synthetic ? { isSynthetic: true } : {}),
  })
  await bus.emit('session.message', { message, shown: false, ...(session.agent ? { agentId: session.agent.agentId } : {}) })
}

/**
 * Runtime context that joins the history between prompts: the last user message takes it, or it
 * is a user message of its own after a response. A transcript's rebuild joins it the same way
 * (an `isMeta` line), so a resumed session sends what this one would have.
 */
export async function joinHistory(session: Session, blocks: ContentBlockParam[]): Promise<void> {
  const last = session.messages.at(-1)
  if (last?.role === 'user') last.content = [...(typeof last.content === 'string' ? [{ type: 'text' as const, text: last.content }] : last.content), ...blocks]
  else session.messages.push({ role: 'user', content: blocks })
  await recordUnshown(session, blocks, true)
}
