import type { ContentBlockParam, MessageParam } from '@anthropic-ai/sdk/resources/messages'
import type { SDKUserMessage } from './messages.js'
import type { Session } from './session.js'
import { recordUnshown } from './unshown.js'

/** Whether the caller asked for its prompts back (`extraArgs: { 'replay-user-messages': null }`). */
export function replaysPrompts(session: Session): boolean {
  const args = session.options.extraArgs
  return args !== undefined && Object.hasOwn(args, 'replay-user-messages')
}

/**
 * The prompt's user message enters the history under `id` — the caller's own uuid when its
 * streaming input carried one — and is recorded. It is the id `Query.rewindFiles` takes; the
 * caller learns it from the result's `user_message_uuid`, or from the echo yielded here when it
 * asked for replays. The echo is marked `isReplay` so it is not recorded a second time, and holds
 * what the caller sent (`sent`), as Claude Code's does: not the context the turn attached to it.
 * A typed command's `header` leads the message the model reads; recorded, it is the prompt (and
 * what the echo holds) and the body is context beside it, as Claude Code records them.
 */
export async function* enterPrompt(session: Session, content: ContentBlockParam[], id: string, sent: MessageParam['content'] = content, header?: string): AsyncGenerator<SDKUserMessage, void, undefined> {
  const { bus } = session.host
  // The line ends as the block sent does, so a resumed session sends the same bytes.
  const line = header === undefined ? undefined : `${header}\n`
  session.messages.push({ role: 'user', content: line === undefined ? content : [{ type: 'text', text: line }, ...content] })
  const message: SDKUserMessage = { type: 'user', message: { role: 'user', content: line ?? content }, parent_tool_use_id: null, uuid: id, session_id: session.id }
  if (bus.has('session.message')) await bus.emit('session.message', { message, shown: false })
  if (header !== undefined) await recordUnshown(session, content, true)
  if (replaysPrompts(session)) yield { ...message, message: { role: 'user', content: header ?? sent }, isReplay: true }
}

/**
 * The blocks of a caller's message that can go to the model. A tool_result there answers no call
 * (every call is answered within its turn): the API refuses it, in this request and in every later
 * one that holds it in the history. Claude Code drops it too.
 */
export function promptBlocks(blocks: readonly ContentBlockParam[]): ContentBlockParam[] {
  return blocks.filter((b) => b.type !== 'tool_result')
}
