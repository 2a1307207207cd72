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
