import type { ContentBlock, ContentBlockParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages'
import { INTERRUPTED, type CallOutcome } from '../tools/pipeline.js'
import type { SDKMessage } from './messages.js'
import type { Session } from './session.js'
import { recordUnshown } from './unshown.js'

/**
 * Answers every tool_use of the last response, in order: one user message per result, one history
 * entry for all. With `join`, messages sent with priority `next` join them; a round that ends the
 * turn (an interrupt, a halt, the last allowed turn) leaves them waiting to start a turn of their own.
 */
export async function* answer(session: Session, toolUses: Extract<ContentBlock, { type: 'tool_use' }>[], outcomes: CallOutcome[], missing = INTERRUPTED, context: ContentBlockParam[] = [], join = false): AsyncGenerator<SDKMessage> {
  if (toolUses.length === 0) return
  const byId = new Map(outcomes.map((o) => [o.toolUseId, o]))
  const results: ToolResultBlockParam[] = []
  for (const use of toolUses) {
    const o = byId.get(use.id)
    const block: ToolResultBlockParam = { type: 'tool_result', tool_use_id: use.id, content: o?.content ?? o?.text ?? missing, ...(o?.isError ?? true ? { is_error: true } : {}) }
    results.push(block)
    yield session.stamp({ type: 'user' as const, message: { role: 'user' as const, content: [block] }, parent_tool_use_id: session.agent?.parentToolUseId ?? null, tool_use_result: o ? o.result ?? o.text : missing })
  }
  const extra: ContentBlockParam[] = [...context]
  // Messages sent with priority `next` while this turn ran join it here, beside the tool results.
  for (const joining of session.agent || !join ? [] : session.root.input?.takeJoining() ?? []) {
    const c = joining.message.content
    extra.push(...(typeof c === 'string' ? [{ type: 'text' as const, text: c }] : c))
  }
  session.messages.push({ role: 'user', content: [...results, ...extra] })
  if (extra.length > 0) await recordUnshown(session, extra, true)
}
