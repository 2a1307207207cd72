import { request } from 'node:http'
import { Readable } from 'node:stream'
import { proxyFor } from '../../runtime/model/proxy-env.js'

type Env = Record<string, string | undefined>

/**
 * A GET of `url` as a fetch Response, through the proxy the environment names for it, as Claude
 * Code sends WebFetch's requests; undefined when no proxy covers the URL (NO_PROXY, or none set).
 * Node's fetch ignores the proxy variables, so the request goes over node:http with a proxy agent
 * (an https URL through a CONNECT tunnel). Nothing is decompressed: no Accept-Encoding is sent.
 */
export async function proxiedGet(url: URL, headers: Record<string, string>, signal: AbortSignal, env: Env): Promise<Response | undefined> {
  const proxy = proxyFor(url, env)
  if (!proxy) return undefined
  const agent = (await import('../../runtime/model/proxy-agent.js')).proxyAgent(proxy, url.protocol === 'https:')
  signal.throwIfAborted()
  return new Promise((resolve, reject) => {
    const req = request(url, { headers, agent, signal })
    req.once('error', (err) => reject(signal.aborted ? signal.reason : new TypeError('fetch failed', { cause: err })))
    req.once('response', (res) => {
      // An abort while the body is read ends the body with the abort's reason, as fetch's does.
      const onAbort = () => res.destroy(signal.reason)
      signal.addEventListener('abort', onAbort, { once: true })
      res.once('close', () => signal.removeEventListener('abort', onAbort))
      const pairs: [string, string][] = []
      for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) pairs.push([res.rawHeaders[i]!, res.rawHeaders[i + 1]!])
      const status = res.statusCode ?? 0
      // fetch's Response refuses a body for these statuses.
      const empty = status === 204 || status === 205 || status === 304
      if (empty) res.resume()
      resolve(new Response(empty ? null : Readable.toWeb(res) as ReadableStream<Uint8Array>, { status, statusText: res.statusMessage ?? '', headers: pairs }))
    })
    req.end()
  })
}
