import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http'
import type { Socket } from 'node:net'
import { encodeBody } from './body-buffer.js'
import { FetchHeaders } from './fetch-headers.js'
import { proxyFor } from './proxy-env.js'

export interface FetchInit {
  method?: string
  headers?: unknown
  body?: unknown
  signal?: AbortSignal | null
}

export type HttpFetch = (input: string | URL | { url: string }, init?: FetchInit, env?: Record<string, string | undefined>) => Promise<unknown>

/**
 * `fetch` for the model client, over node:http(s). Node's own fetch is undici, which is loaded
 * whole on first use (~50 ms of CPU and ~10 MiB on a cold start, its HTTP parser a WebAssembly
 * module) and converts and copies every request body; node:http parses with Node's built-in
 * parser. It covers what the SDK's requests are — a string body, a response read as a stream or
 * as text — and hands anything else (a stream or form body, another scheme) to the global fetch.
 * Aborts reject with the signal's reason, as fetch does; a failed connection rejects with
 * `TypeError: fetch failed` and the cause. A redirect is returned as the response it is. With a
 * proxy variable in `env` that covers the URL (proxy-env.ts), the request goes through the proxy.
 */
export const httpFetch: HttpFetch = async (input, init = {}, env) => {
  const href = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
  const url = new URL(href)
  const { body, signal } = init
  if ((body != null && typeof body !== 'string') || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    return globalThis.fetch(input as string, init as RequestInit)
  }
  const headers = headerRecord(init.headers)
  const proxy = env && proxyFor(url, env)
  const agent = proxy ? (await import('./proxy-agent.js')).proxyAgent(proxy, url.protocol === 'https:') : await agentFor(url.protocol === 'https:')
  if (signal?.aborted) throw abortReason(signal)
  return new Promise((resolve, reject) => {
    let response: IncomingMessage | undefined
    // The agent decides the protocol: an https agent makes TLS connections.
    const req = httpRequest(url, { method: init.method ?? 'GET', headers, agent })
    const onAbort = () => {
      const reason = abortReason(signal!) as Error
      req.destroy(reason)
      response?.destroy(reason)
      reject(reason)
    }
    const done = () => signal?.removeEventListener('abort', onAbort)
    signal?.addEventListener('abort', onAbort, { once: true })
    req.once('error', (err) => {
      done()
      reject(signal?.aborted ? abortReason(signal) : new TypeError('fetch failed', { cause: err }))
    })
    req.once('response', (res) => {
      response = res
      res.once('close', done)
      resolve(new HttpResponse(url.href, res))
    })
    // The body goes as bytes from the kept buffer (body-buffer.ts); node:http sends their length.
    const encoded = typeof body === 'string' ? encodeBody(body) : undefined
    if (encoded) {
      req.once('finish', () => encoded.release(true))
      req.once('close', () => encoded.release(false))
    }
    req.end(encoded?.bytes)
  })
}

/**
 * Opens the connection to `baseURL` now, so the first request finds it ready: the TCP (and TLS)
 * handshake overlaps loading the session instead of following it. A connection nothing used is
 * left unreferenced, so it never holds the process open. Behind a proxy there is nothing to open ahead.
 */
export function preconnect(baseURL: string, env: Record<string, string | undefined>): void {
  let url: URL
  try {
    url = new URL(baseURL)
  } catch {
    return
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || proxyFor(url, env)) return
  agentFor(url.protocol === 'https:').then((agent) => agent.preconnect(url), noop)
}

/** A response as the SDK reads it: status, headers, and the body as a Node stream (async iterable of bytes). */
class HttpResponse {
  readonly status: number
  readonly statusText: string
  readonly ok: boolean
  readonly headers: FetchHeaders
  readonly body: IncomingMessage | null
  readonly redirected = false
  readonly type = 'basic'

  constructor(readonly url: string, res: IncomingMessage) {
    this.status = res.statusCode ?? 0
    this.statusText = res.statusMessage ?? ''
    this.ok = this.status >= 200 && this.status < 300
    const headers = new FetchHeaders()
    for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) headers.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!)
    this.headers = headers
    // fetch gives these statuses no body; what the server sent is drained so the socket is reused.
    const nullBody = this.status === 204 || this.status === 205 || this.status === 304
    if (nullBody) res.resume()
    this.body = nullBody ? null : res
  }

  get bodyUsed(): boolean {
    return this.body?.readableDidRead ?? false
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = await this.bytes()
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer
  }

  async text(): Promise<string> {
    return (await this.bytes()).toString('utf8')
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text())
  }

  private async bytes(): Promise<Buffer> {
    if (!this.body) return Buffer.alloc(0)
    const chunks: Buffer[] = []
    for await (const chunk of this.body) chunks.push(chunk as Buffer)
    return Buffer.concat(chunks)
  }
}

type ConnectOptions = { host?: string; port?: number | string; servername?: string }

/** Keep-alive agents that can open a connection ahead of the request that will use it. */
function preconnecting<T extends typeof HttpAgent>(Base: T, defaultPort: number) {
  return class extends (Base as typeof HttpAgent) {
    private readonly spare = new Map<string, Socket>()

    preconnect(url: URL): void {
      const key = `${url.hostname}:${url.port || defaultPort}`
      if (this.spare.has(key)) return
      const host = url.hostname.replace(/^\[(.*)\]$/, '$1')
      const options: ConnectOptions = { host, port: Number(url.port || defaultPort), ...(defaultPort === 443 ? { servername: host } : {}) }
      const create = HttpAgent.prototype.createConnection as unknown as (this: HttpAgent, o: ConnectOptions) => Socket
      const socket = (Base.prototype.createConnection as unknown as typeof create).call(this, options)
      // As the agent's own connections are (its `noDelay` default): without it, Nagle's algorithm
      // may hold a request's last segment until the server acknowledges the ones before it.
      socket.setNoDelay(true)
      // Until a request takes it, its failure is nobody's: the request opens its own.
      socket.on('error', noop)
      socket.unref()
      this.spare.set(key, socket)
    }

    override createConnection(options: ConnectOptions, callback?: (err: Error | null, socket: Socket) => void): Socket {
      const key = `${options.host}:${options.port ?? defaultPort}`
      const socket = this.spare.get(key)
      this.spare.delete(key)
      if (socket && !socket.destroyed) {
        socket.off('error', noop)
        socket.ref()
        return socket
      }
      return (Base.prototype.createConnection as unknown as (o: ConnectOptions, cb?: typeof callback) => Socket).call(this, options, callback)
    }
  }
}

type Preconnecting = HttpAgent & { preconnect(url: URL): void }
let httpAgent: Preconnecting | undefined
let httpsAgent: Promise<Preconnecting> | undefined

// node:https (and TLS with it) is loaded only for an https URL: a local server needs neither.
function agentFor(secure: boolean): Promise<Preconnecting> {
  if (secure) {
    return (httpsAgent ??= import('node:https').then(({ Agent }) => new (preconnecting(Agent as unknown as typeof HttpAgent, 443))({ keepAlive: true }) as Preconnecting))
  }
  return Promise.resolve(httpAgent ??= new (preconnecting(HttpAgent, 80))({ keepAlive: true }) as Preconnecting)
}

function noop(): void {}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError')
}

/** Any HeadersInit (a Headers, pairs, a record) as node:http's header object, names lowercased. */
function headerRecord(init: unknown): Record<string, string> {
  if (init instanceof FetchHeaders) return init.toRecord()
  const out: Record<string, string> = {}
  if (init == null) return out
  const pairs: Iterable<readonly [string, unknown]> = typeof (init as Iterable<unknown>)[Symbol.iterator] === 'function'
    ? init as Iterable<readonly [string, unknown]>
    : Object.entries(init as Record<string, unknown>)
  for (const [name, value] of pairs) {
    if (value === undefined || value === null) continue
    const key = name.toLowerCase()
    out[key] = out[key] === undefined ? String(value) : `${out[key]}, ${String(value)}`
  }
  return out
}
