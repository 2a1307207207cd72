import { proxyFor } from '../../runtime/model/proxy-env.js'

type Env = Record<string, string | undefined>

/**
 * A GET of `url` as a fetch Response, through the proxy the environment names for it, as Claude
 * Code sends WebFetch's requests; undefined when no proxy covers the URL (NO_PROXY, or none set).
 */
export async function proxiedGet(url: URL, headers: Record<string, string>, signal: AbortSignal, env: Env): Promise<Response | undefined> {
  const proxy = proxyFor(url, env)
  if (!proxy) return undefined
  return (await import('../../runtime/model/proxied-fetch.js')).proxiedFetch(url, { headers, signal }, proxy)
}
