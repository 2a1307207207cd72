import { describeWithCause, innermostCause } from '../../core/errors.js'

// What a user can do about the usual reasons a connection to the API fails, by the system's code.
const HINTS: Record<string, string> = {
  ECONNREFUSED: 'nothing accepts connections there: check ANTHROPIC_BASE_URL, or a firewall or proxy in the way',
  ENOTFOUND: 'the host name does not resolve: check ANTHROPIC_BASE_URL, the network and DNS',
  EAI_AGAIN: 'the host name could not be resolved now: check the network and DNS',
  ETIMEDOUT: 'the server did not answer the connection: check the network, or a firewall or proxy in the way',
  ECONNRESET: 'the connection was closed from the other end (a proxy or the server)',
  EHOSTUNREACH: 'no route to the host: check the network',
  ENETUNREACH: 'the network is unreachable: check the connection',
  CERT_HAS_EXPIRED: 'the server\'s TLS certificate has expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'the server\'s TLS certificate is self-signed: NODE_EXTRA_CA_CERTS can name it as trusted',
  SELF_SIGNED_CERT_IN_CHAIN: 'a TLS certificate in the chain is not trusted (a proxy that inspects TLS?): NODE_EXTRA_CA_CERTS can name its CA',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'the server\'s TLS certificate cannot be verified: NODE_EXTRA_CA_CERTS can name its CA',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'the server\'s TLS certificate cannot be verified: NODE_EXTRA_CA_CERTS can name its CA',
  ERR_TLS_CERT_ALTNAME_INVALID: 'the server\'s TLS certificate is for another host name',
}

/**
 * Why a connection to the API failed, in words a user can act on: the system's reason under the
 * SDK's and fetch's wrappers (describeWithCause), and advice picked by its code.
 */
export function describeConnectionFailure(err: unknown): string {
  const code = (innermostCause(err) as { code?: unknown } | undefined)?.code
  const hint = typeof code === 'string' ? HINTS[code] : undefined
  return `${describeWithCause(err)}${hint ? `: ${hint}` : ''}`
}
