import { RequestError, type StopReason } from '@agentclientprotocol/sdk'
import type { SDKResultMessage } from '../../core/loop/messages.js'

/**
 * How a turn's result ends an ACP prompt. An interrupted turn is `cancelled`; a turn that hit
 * --max-turns or --max-budget-usd is `max_turn_requests` (both cap how many requests a prompt
 * makes); the model's own refusal or output cap, `refusal` / `max_tokens`; a success `end_turn`.
 * Any other failure (the API or the model failed, a hook stopped the prompt) answers the prompt with a
 * JSON-RPC internal error carrying the result's text.
 */
export function stopReasonOf(r: SDKResultMessage, cancelled: boolean): StopReason {
  if (cancelled || r.terminal_reason === 'aborted_streaming' || r.terminal_reason === 'aborted_tools') return 'cancelled'
  if (r.subtype === 'error_max_turns' || r.subtype === 'error_max_budget_usd') return 'max_turn_requests'
  if (r.stop_reason === 'refusal') return 'refusal'
  if (r.stop_reason === 'max_tokens') return 'max_tokens'
  // An API failure ends a turn as a success flagged is_error, its text in `result` (as Claude Code's does).
  if (r.subtype === 'success' && r.is_error) {
    const data = { subtype: r.subtype, terminal_reason: r.terminal_reason, errors: [r.result] }
    const why = `the turn failed (${r.terminal_reason}): ${r.result}`
    // A key the API refused is ACP's "authentication required", so an editor can offer its sign-in.
    throw r.api_error_status === 401 ? RequestError.authRequired(data, why) : RequestError.internalError(data, why)
  }
  if (r.subtype === 'success') return 'end_turn'
  throw RequestError.internalError({ subtype: r.subtype, terminal_reason: r.terminal_reason, errors: r.errors ?? [] },
    `the turn failed (${r.terminal_reason}): ${(r.errors ?? []).join('; ') || r.subtype}`)
}
