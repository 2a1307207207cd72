import type { ContentBlock, ContentBlockParam, MessageParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages'
import type { ToolExecutor } from '../tools/executor.js'
import { INTERRUPTED, type CallOutcome } from '../tools/pipeline.js'
import type { SDKMessage } from './messages.js'
import { promptBlocks } from './prompt-message.js'
import type { Session } from './session.js'
import { recordUnshown } from './unshown.js'

type ToolUse = Extract<ContentBlock, { type: 'tool_use' }>

/** One call's tool_result block (a call with no outcome never ran: it is answered with `missing`). */
export function resultBlock(use: Pick<ToolUse, 'id'>, o: CallOutcome | undefined, missing = INTERRUPTED): ToolResultBlockParam {
  return { type: 'tool_result', tool_use_id: use.id, content: o?.content ?? o?.text ?? missing, ...(o?.isError ?? true ? { is_error: true } : {}) }
}

/**
 * The user message that carries one call's result block in the stream. Its `tool_use_result` is
 * the tool's structured output, or for a call that failed (or never ran) `Error: ` and the text
 * the model read, as the Agent SDK's consumers get it.
 */
export function resultMessage(session: Session, block: ToolResultBlockParam, o: CallOutcome | undefined, missing = INTERRUPTED): SDKMessage {
  const shown = o && !o.isError ? o.result ?? o.text : `Error: ${o?.text ?? missing}`
  return session.stamp({ type: 'user' as const, message: { role: 'user' as const, content: [block] }, parent_tool_use_id: session.agent?.parentToolUseId ?? null, tool_use_result: shown })
}

/**
 * Waits for every call of the response, yielding each one's result as soon as it and every call
 * before it have settled — the stream keeps the tool_use order, and a result enters the
 * transcript the moment it exists: a process killed while a later call runs keeps what the
 * finished calls did, and a resume answers only the unfinished ones as not run. A deferred call
 * (and what follows it) waits for answer(), which decides what it gets. Returns the outcomes and
 * how many results were yielded.
 */
export async function* resultsAsSettled(session: Session, toolUses: readonly ToolUse[], executor: ToolExecutor): AsyncGenerator<SDKMessage, { outcomes: CallOutcome[]; shown: number }, undefined> {
  const outcomes: CallOutcome[] = []
  let shown = 0
  for (const pending of executor.each()) {
    // Subagents' messages reach the root stream while its tools run; a subagent just waits on its own.
    const o = session.agent ? await pending : yield* session.drainWhile(pending)
    outcomes.push(o)
    if (shown === outcomes.length - 1 && !o.deferred && toolUses[shown]?.id === o.toolUseId) {
      yield resultMessage(session, resultBlock(toolUses[shown]!, o), o)
      shown++
    }
  }
  return { outcomes, shown }
}

/**
 * Answers every tool_use of the last response, in order: one user message per result (but for
 * the first `shown`, already yielded by resultsAsSettled), one history entry for all. With `join`,
 * messages sent with priority `next` and the reports of background tasks that ended join them; a
 * round that ends the turn (an interrupt, a halt, the last allowed turn) leaves them waiting to
 * start a turn of their own. A subagent's round takes its inbox instead.
 */
export async function* answer(session: Session, toolUses: ToolUse[], outcomes: CallOutcome[], missing = INTERRUPTED, context: ContentBlockParam[] = [], join = false, shown = 0): AsyncGenerator<SDKMessage> {
  if (toolUses.length === 0) return
  const byId = new Map(outcomes.map((o) => [o.toolUseId, o]))
  const results: ToolResultBlockParam[] = []
  for (const [i, use] of toolUses.entries()) {
    const o = byId.get(use.id)
    const block = resultBlock(use, o, missing)
    results.push(block)
    if (i >= shown) yield resultMessage(session, block, o, missing)
  }
  const extra: ContentBlockParam[] = [...context]
  const input = session.agent || !join ? undefined : session.root.input
  // Messages sent with priority `next` while this turn ran join it here, beside the tool results.
  for (const joining of input?.takeJoining() ?? []) extra.push(...framed(joining.message.content))
  // So do the reports of background tasks that ended meanwhile, as in Claude Code: the model reads
  // them before it answers, and no turn of their own runs after. Each says it is no person's words.
  for (const { message: { content } } of input?.takeNotifications() ?? []) extra.push(...(typeof content === 'string' ? [{ type: 'text' as const, text: content }] : promptBlocks(content)))
  // A subagent has no input queue; what was sent to it meanwhile joins its round the same way.
  if (session.agent && join) for (const { text } of session.inbox.splice(0)) extra.push({ type: 'text', text })
  session.messages.push({ role: 'user', content: [...results, ...extra] })
  if (extra.length > 0) await recordUnshown(session, extra, true)
}

const JOINED_BEFORE = 'The user sent this message while you were working:'
const JOINED_AFTER = 'It is part of this turn: take it into account as you go on.'

/**
 * A message joining the turn, framed as the person's words: beside tool results, bare text would
 * read as more tool output (Claude Code frames it as well).
 */
function framed(content: MessageParam['content']): ContentBlockParam[] {
  if (typeof content === 'string') return [{ type: 'text', text: `${JOINED_BEFORE}\n${content}\n\n${JOINED_AFTER}` }]
  return [{ type: 'text', text: JOINED_BEFORE }, ...promptBlocks(content), { type: 'text', text: JOINED_AFTER }]
}
