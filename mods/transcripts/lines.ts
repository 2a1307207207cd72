import { uuid as newUuid } from '../../core/random.js'
import type { SDKMessage } from '../../core/loop/messages.js'
import { TURN_RESULT, type EntryBase, type MessageEntry, type TurnResult } from './store/entry.js'

/** The fields every line of one transcript shares; `uuid`, `parentUuid` and `timestamp` are per line. */
export type LineBase = Omit<EntryBase, 'uuid' | 'parentUuid' | 'timestamp'>


/**
 * What one stream message leaves in the transcript (the writer sets `parentUuid`), or undefined
 * for what it does not keep: `init` (rebuilt on every turn), partial stream events and tool progress. A result
 * becomes a `system` line of subtype `turn_result` holding the result's fields, so a resumed
 * session carries its totals on.
 */
export function toLine(m: SDKMessage, base: LineBase, model?: string): MessageEntry | undefined {
  const timestamp = new Date().toISOString()
  const uuid = m.uuid ?? newUuid()
  const parentUuid = null
  switch (m.type) {
    case 'user':
      return {
        parentUuid, ...base, type: 'user', uuid, timestamp,
        message: { role: 'user', content: m.message.content as Extract<MessageEntry, { type: 'user' }>['message']['content'] },
        ...(m.isSynthetic ? { isMeta: true as const } : {}),
        ...(m.isCompactSummary ? { isCompactSummary: true as const } : {}),
        ...(m.tool_use_result !== undefined ? { toolUseResult: m.tool_use_result } : {}),
      }
    case 'assistant':
      return {
        parentUuid, ...base, type: 'assistant', uuid, timestamp, message: m.message,
        ...(m.request_id ? { requestId: m.request_id } : {}), ...(m.error ? { error: m.error } : {}),
        ...(m.is_api_error_message ? { isApiErrorMessage: true, apiErrorStatus: m.api_error_status ?? null } : {}),
      }
    case 'result': {
      const { type: _t, uuid: _u, session_id: _s, permission_denials: _p, ...rest } = m
      const result: TurnResult = rest
      return { parentUuid, ...base, type: 'system', subtype: TURN_RESULT, uuid, timestamp, level: m.is_error ? 'error' : 'info', ...(model ? { model } : {}), result }
    }
    case 'stream_event':
    case 'tool_progress':
    // The conversation it announces has a transcript of its own, started afresh.
    case 'conversation_reset':
    // A guess at the next prompt is only shown, as in Claude Code.
    case 'prompt_suggestion':
      return undefined
    default: {
      if (m.subtype === 'init') return undefined
      const { type: _t, uuid: _u, session_id: _s, subtype, ...fields } = m
      return { parentUuid, ...fields, ...base, type: 'system', subtype, uuid, timestamp }
    }
  }
}
