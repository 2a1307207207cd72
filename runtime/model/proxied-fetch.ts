import { request } from 'node:http'
import { Readable } from 'node:stream'

/**
 * `fetch` through `proxy`, for what reaches the network outside the model client (WebFetch, MCP
 * HTTP and SSE servers; Node's fetch ignores the proxy variables): an https URL through a CONNECT
 * tunnel, any method, the body sent as bytes, and the answer a fetch Response whose body streams,
 * so an event stream stays open until the signal aborts it. A redirect is returned as it is (the
 * callers follow redirects themselves, each hop's proxy decided anew). Nothing is decompressed: no
 * Accept-Encoding is added. Loaded only when a proxy covers a URL.
 */
export async function proxiedFetch(url: URL, init: RequestInit, proxy: string): Promise<Response> {
  const agent = (await import('./proxy-agent.js')).proxyAgent(proxy, url.protocol === 'https:')
  const body = init.body == null ? undefined : Buffer.from(await new Response(init.body).arrayBuffer())
  const signal = init.signal ?? undefined
  signal?.throwIfAborted()
  return new Promise((resolve, reject) => {
    const req = request(url, { method: init.method ?? 'GET', headers: Object.fromEntries(new Headers(init.headers)), agent, signal })
    req.once('error', (err) => reject(signal?.aborted ? signal.reason : new TypeError('fetch failed', { cause: err })))
    req.once('response', (res) => {
      // An abort while the body is read ends the body with the abort's reason, as fetch's does.
      const onAbort = () => res.destroy(signal!.reason)
      signal?.addEventListener('abort', onAbort, { once: true })
      res.once('close', () => signal?.removeEventListener('abort', onAbort))
      const pairs: [string, string][] = []
      for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) pairs.push([res.rawHeaders[i]!, res.rawHeaders[i + 1]!])
      const status = res.statusCode ?? 0
      // fetch's Response refuses a body for these statuses.
      const empty = status === 204 || status === 205 || status === 304
      if (empty) res.resume()
      resolve(new Response(empty ? null : Readable.toWeb(res) as ReadableStream<Uint8Array>, { status, statusText: res.statusMessage ?? '', headers: pairs }))
    })
    req.end(body)
  })
}
