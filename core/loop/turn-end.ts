import type { Usage } from '../events/types.js'
import type { Ending } from './ending.js'
import { resultUsage, uuid, zeroUsage, type SDKMessage, type SDKMessageOrigin, type SDKResultMessage } from './messages.js'
import type { Session } from './session.js'

/**
 * Results the caller sees but no session.message records (the transcript keeps no line of them):
 * a side question's answer leaves no trace in the session, as in Claude Code.
 */
export const UNRECORDED = new WeakSet<SDKMessage>()

/** What a turn accumulates for its one result message, and how it ends. */
export class TurnEnd {
  readonly started = performance.now()
  readonly usage: Usage = zeroUsage()
  readonly denialsStart: number
  apiMs = 0
  num = 0
  lastText = ''
  stopReason: string | null = null
  /** The uuid of the prompt's user message, once it entered the history. */
  userMessageUuid: string | undefined
  /** Set for a turn no person started (a background task's report): the result carries it. */
  origin: SDKMessageOrigin | undefined
  /** How many model requests this turn may make (the session's maxTurns, or what a budget left it). */
  maxTurns: number | undefined

  constructor(private readonly session: Session, private readonly turnId: string) {
    this.denialsStart = session.root.denials.length
    this.maxTurns = session.options.maxTurns
  }

  /** Raises turn.complete, then returns the result (yielding a line if a mod put text beneath the answer). */
  async *finish(ending: Ending): AsyncGenerator<SDKMessage, SDKResultMessage, undefined> {
    const { session } = this
    const durationMs = Math.round(performance.now() - this.started)
    const aborted = ending.terminal === 'aborted_streaming' || ending.terminal === 'aborted_tools'
    const text = ending.text ?? this.lastText
    session.root.apiMs += this.apiMs
    if (ending.apiError) yield apiErrorMessage(session, text, ending)
    // A failing turn.complete handler is skipped by the bus: it never changes how the turn ended.
    const shown = await session.host.bus.emit('turn.complete', {
      answer: this.lastText, durationMs, isAborted: aborted, turnId: this.turnId, usage: { ...this.usage },
      ...(session.agent ? { agentId: session.agent.agentId } : {}),
      reason: aborted ? 'aborted' : ending.isError ? 'error' : 'answer',
    })
    if (shown.text !== this.lastText && shown.text) {
      yield session.stamp({ type: 'system', subtype: 'informational', level: 'info', content: shown.text })
    }
    const result = session.stamp({
      type: 'result' as const,
      subtype: ending.subtype,
      is_error: ending.isError,
      ...(ending.subtype === 'success' ? { result: text } : { errors: ending.errors ?? (ending.text ? [ending.text] : []) }),
      // Claude Code counts the request the limit refused: a stop at --max-turns N reports N + 1.
      num_turns: ending.terminal === 'max_turns' ? this.num + 1 : this.num,
      duration_ms: durationMs,
      // The session's API time so far, as total_cost_usd is its cost so far (Claude Code's does the same).
      duration_api_ms: Math.round(session.root.apiMs),
      total_cost_usd: session.root.totalCostUsd,
      usage: resultUsage(this.usage),
      modelUsage: structuredClone(session.root.modelUsage),
      stop_reason: this.stopReason,
      terminal_reason: ending.terminal,
      permission_denials: session.root.denials.slice(this.denialsStart),
      ...(ending.deferred ? { deferred_tool_use: ending.deferred } : {}),
      ...('structuredOutput' in ending ? { structured_output: ending.structuredOutput } : {}),
      // A success always says whether an API failure ended it (null: none did), as Claude Code's does.
      ...(ending.apiErrorStatus !== undefined || ending.subtype === 'success' ? { api_error_status: ending.apiErrorStatus ?? null } : {}),
      // modloop has no fast mode to turn on.
      fast_mode_state: 'off' as const,
      ...(ending.localCommand ? { local_command: ending.localCommand } : {}),
      ...(this.userMessageUuid ? { user_message_uuid: this.userMessageUuid } : {}),
      ...(this.origin ? { origin: this.origin } : {}),
      // The how-manieth result of the query this is, counted from 0 (a subagent's are not the caller's).
      ...(session.agent ? {} : { result_index: session.root.results++ }),
    })
    if (ending.unrecorded) UNRECORDED.add(result)
    return result
  }
}

/**
 * An API failure reaches the stream as an assistant message too, as Claude Code sends it: a
 * response of the error's text from no model (`<synthetic>`), its kind in `error`, so a caller
 * that shows assistant messages shows the failure and one that reads `error` can tell a rate
 * limit from a bad key. It is recorded, and never enters the history sent to the model.
 */
function apiErrorMessage(session: Session, text: string, ending: Ending): SDKMessage {
  return session.stamp({
    type: 'assistant' as const,
    message: {
      id: uuid(), type: 'message' as const, role: 'assistant' as const, model: '<synthetic>',
      content: [{ type: 'text' as const, text, citations: null }], stop_reason: 'stop_sequence', stop_sequence: '', usage: zeroUsage(),
    },
    parent_tool_use_id: session.agent?.parentToolUseId ?? null,
    error: ending.apiError,
    is_api_error_message: true as const,
    api_error_status: ending.apiErrorStatus ?? null,
  })
}
