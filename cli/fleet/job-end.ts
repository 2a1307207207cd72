import type { SDKResultMessage } from '../../core/loop/messages.js'

/**
 * How a session's result ends its job. A result that is not an error completes it. An error result
 * fails it with the result kept and its words as the error: `retry` when the model calls kept
 * failing for a reason that may pass (a server error, an overload, a rate limit, no answer at all),
 * so the queue's retry policy runs it again; else it fails for good, as running it again would end
 * the same way (a turn or budget limit, a refused key).
 */
export type JobEnd = { kind: 'complete' } | { kind: 'fail'; error: string; retry: boolean }

export function jobEnd(result: SDKResultMessage): JobEnd {
  if (!result.is_error) return { kind: 'complete' }
  const error = result.errors?.join('; ') || result.result || `the session ended with ${result.subtype} (${result.terminal_reason})`
  return { kind: 'fail', error, retry: result.terminal_reason === 'api_error' && passing(result.api_error_status) }
}

/** Statuses that may answer otherwise later (none: the connection failed). */
function passing(status: number | null | undefined): boolean {
  return status == null || status === 408 || status === 429 || status >= 500
}
