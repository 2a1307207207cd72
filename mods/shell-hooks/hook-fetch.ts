import { proxyFor } from '../../runtime/model/proxy-env.js'

type Env = Record<string, string | undefined>

/**
 * The fetch `http` hooks post with: through the proxy the session's environment names for the
 * hook's URL, under NO_PROXY, as Claude Code sends them (Node's fetch ignores the proxy variables).
 * A URL no proxy covers stays on Node's fetch, which follows redirects.
 */
export function hookFetch(env: () => Env): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input))
    const proxy = proxyFor(url, env())
    if (!proxy) return fetch(input, init)
    return (await import('../../runtime/model/proxied-fetch.js')).proxiedFetch(url, init ?? {}, proxy)
  }) as typeof fetch
}
