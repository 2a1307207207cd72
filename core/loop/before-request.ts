import type { MessageParam } from '@anthropic-ai/sdk/resources/messages'
import type { CompactOutcome, SessionMessage } from '../events/types.js'
import type { ModelApiError } from '../model/types.js'
import { compactShowingStatus, flushCompaction, invalidHistory } from './compact.js'
import type { SDKMessage } from './messages.js'
import type { Session } from './session.js'
import type { Ending } from './ending.js'

/** The request about to be sent, as `turn.request` and `turn.overflow` name it. */
export interface RequestIds { turnId: string; index: number; model: string }

/**
 * Before each request: raises `turn.request` with the history and its size. A handler's answer
 * may replace the history sent (checked, not recorded), have it compacted first, or end the turn;
 * after a replacement or a compaction the event is raised again with the new history, each
 * honoured once per request. Returns the turn's ending, or undefined to send the request.
 */
export async function* beforeRequest(session: Session, ids: RequestIds): AsyncGenerator<SDKMessage, Ending | undefined, undefined> {
  yield* flushCompaction(session)
  const { bus } = session.host
  if (!bus.has('turn.request')) return undefined
  const agent = session.agent ? { agentId: session.agent.agentId } : {}
  let compacted: CompactOutcome | undefined
  let replaced = false
  for (;;) {
    const r = await bus.emit('turn.request', { ...ids, messages: session.messages as readonly SessionMessage[], tokens: session.meter.tokens(), ...(compacted ? { compacted } : {}), ...agent })
    if ('end' in r) return { subtype: 'success', terminal: r.end.terminal, text: r.end.text, isError: true }
    if ('compact' in r && !compacted) {
      const c = yield* compactShowingStatus(session, r.compact.instructions)
      compacted = 'skip' in c ? { skip: c.skip, ...(c.isFailed ? { isFailed: true as const } : {}) } : { tokensBefore: c.tokensBefore ?? 0, tokensAfter: c.tokensAfter ?? 0 }
      continue
    }
    if ('messages' in r && r.messages && !replaced) {
      replaced = true
      const why = replaceHistory(session, r.messages)
      if (why === undefined) continue
      yield session.stamp({ type: 'system', subtype: 'informational', level: 'warning', parent_tool_use_id: session.agent?.parentToolUseId ?? null, content: `turn.request: the history a mod handed back was not used: ${why}` })
    }
    // A handler may have compacted through $.session.compact meanwhile: that goes out before the request.
    yield* flushCompaction(session)
    return undefined
  }
}

/** Installs a rewritten history for this and later requests; the reason it cannot stand, if it cannot. */
function replaceHistory(session: Session, messages: SessionMessage[]): string | undefined {
  const invalid = invalidHistory(messages, new Set(session.messages))
  if (invalid) return invalid
  const before = [...session.messages]
  session.messages.splice(0, session.messages.length, ...(messages as MessageParam[]))
  session.meter.rewritten(before)
  return undefined
}

export function isPromptTooLong(error: ModelApiError): boolean {
  return /prompt is too long|input is too long|prompt_too_long/i.test(error.message)
}

/**
 * The API refused the request as too long: raises `turn.overflow`. When a handler asks, the
 * conversation is compacted and the request sent again ('retry'); otherwise, or when that
 * compaction does not happen, the turn ends as `prompt_too_long`.
 */
export async function* afterTooLong(session: Session, ids: RequestIds, error: ModelApiError): AsyncGenerator<SDKMessage, Ending | 'retry', undefined> {
  const ending = (why?: string): Ending => ({
    subtype: 'success', terminal: 'prompt_too_long', isError: true, text: `Prompt is too long${why ? ` - automatic compaction failed: ${why}` : ''}`,
  })
  const r = await session.host.bus.emit('turn.overflow', {
    ...ids, error: error.message, messages: session.messages as readonly SessionMessage[], tokens: session.meter.tokens(),
    ...(session.agent ? { agentId: session.agent.agentId } : {}),
  })
  if (!r.compact) return ending()
  const c = yield* compactShowingStatus(session, r.compact.instructions)
  return 'skip' in c ? ending(c.skip) : 'retry'
}
