import type { ModelErrorType } from './types.js'

/**
 * How Messages API failures map to modloop's ModelErrorType — shared by the Anthropic adapter
 * and the scripted model, so a scripted failure is reported exactly like a real one.
 */
export function modelErrorType(status: number | null, apiType?: string | null): ModelErrorType {
  // The error body's type decides first: a mid-stream `error` event has no HTTP status.
  switch (apiType) {
    case 'overloaded_error': return 'overloaded'
    case 'rate_limit_error': return 'rate_limit'
    case 'authentication_error': return 'authentication_failed'
    case 'billing_error': return 'billing_error'
    case 'not_found_error': if (status === 404 || status === null) return 'model_not_found'; break
    case 'api_error': if (status === null) return 'server_error'; break
    case 'invalid_request_error': if (status === null) return 'invalid_request'; break
  }
  if (status === null) return 'unknown'
  if (status === 429) return 'rate_limit'
  if (status === 529) return 'overloaded'
  if (status === 401 || status === 403) return 'authentication_failed'
  if (status === 402) return 'billing_error'
  if (status === 404) return 'model_not_found'
  // 408 is the server giving up on a slow request: a transport failure, so it is retried.
  if (status === 408) return 'connection'
  if (status >= 500) return 'server_error'
  if (status >= 400) return 'invalid_request'
  return 'unknown'
}

/** The Messages API error `type` an HTTP status carries when a script does not name one. */
export function apiErrorTypeFor(status: number): string {
  switch (status) {
    case 400: return 'invalid_request_error'
    case 401: return 'authentication_error'
    case 402: return 'billing_error'
    case 403: return 'permission_error'
    case 404: return 'not_found_error'
    case 413: return 'request_too_large'
    case 429: return 'rate_limit_error'
    case 529: return 'overloaded_error'
    default: return status >= 500 ? 'api_error' : 'invalid_request_error'
  }
}

/** A ModelErrorType as the Agent SDK names failures (`SDKAssistantMessageError`, spec §2.2); transport failures are `unknown` there. */
export function assistantError(type: ModelErrorType): string {
  switch (type) {
    case 'connection': case 'stream': case 'aborted': return 'unknown'
    default: return type
  }
}
