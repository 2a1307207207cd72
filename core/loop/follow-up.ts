import type { ContentBlockParam } from '@anthropic-ai/sdk/resources/messages'
import type { CallOutcome } from '../tools/pipeline.js'
import { attach } from './attach.js'
import { attachMentions } from './mentions.js'
import type { SDKMessage } from './messages.js'
import type { Session } from './session.js'
import { recordUnshown } from './unshown.js'

/**
 * The text tools gave to follow their results (a skill's instructions, spec loop-and-sdk §6.3):
 * each joins the user message that holds the batch's results, after it, as plain text — the
 * conversation's words, not a tool's output — with the files its `@path` mentions name attached
 * before it, as Claude Code attaches them. The stream shows the text as a synthetic user message.
 */
export async function* followUps(session: Session, outcomes: readonly CallOutcome[]): AsyncGenerator<SDKMessage> {
  for (const o of outcomes) {
    if (!o.followUp || o.interrupted) continue
    const results = session.messages.at(-1)!
    const mentioned = await attachMentions(session, o.followUp)
    const files = [...(await attach(session, 'file', mentioned.context, { kind: 'plugin', event: 'prompt.mention' })), ...mentioned.images]
    const text: ContentBlockParam = { type: 'text', text: o.followUp }
    results.content = [...(results.content as ContentBlockParam[]), ...files, text]
    if (files.length > 0) await recordUnshown(session, files, true)
    yield session.stamp({ type: 'user' as const, message: { role: 'user' as const, content: [text] }, parent_tool_use_id: session.agent?.parentToolUseId ?? null, isSynthetic: true })
  }
}
