/** The credentials of the environment (or the options), as Claude Code sends them. */
export interface Credentials {
  /** Sent as `x-api-key`. */
  apiKey?: string
  /** Sent as `Authorization: Bearer …`. */
  authToken?: string
}

/**
 * The auth headers of one request. An API key goes in `x-api-key` and a token in `Authorization`,
 * as Claude Code sends them: the SDK would put an API key in `Authorization` too, which a gateway
 * that checks `x-api-key` refuses. A header with nothing to send is removed (`null`), so the
 * client's own never goes out.
 */
export function authHeaders(credentials: Credentials): Record<string, string | null> {
  return {
    'x-api-key': credentials.apiKey ?? null,
    authorization: credentials.authToken ? `Bearer ${credentials.authToken}` : null,
  }
}
