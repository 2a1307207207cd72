import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FetchHeaders } from '../../runtime/model/fetch-headers.js'
import { httpFetch, preconnect } from '../../runtime/model/http-fetch.js'

interface Res {
  status: number
  ok: boolean
  headers: FetchHeaders
  body: AsyncIterable<Uint8Array> | null
  text(): Promise<string>
  json(): Promise<unknown>
}

let server: Server
let base: string
const connections: string[] = []
const seen: { method?: string; headers: IncomingMessage['headers']; body: string; socket: string }[] = []
let release: () => void = () => {}

beforeAll(async () => {
  server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const body = Buffer.concat(chunks).toString('utf8')
    const socket = `${req.socket.remotePort}`
    seen.push({ method: req.method, headers: req.headers, body, socket })
    if (req.url === '/stream') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'Request-Id': 'req_1' })
      res.write('event: one\n\n')
      // The rest waits for the test: an abort lands mid-body.
      await new Promise<void>((resolve) => (release = resolve))
      res.end('event: two\n\n')
      return
    }
    if (req.url === '/empty') return void res.writeHead(204).end()
    res.writeHead(req.url === '/missing' ? 404 : 200, { 'content-type': 'application/json', 'set-cookie': ['a=1', 'b=2'] })
    res.end(JSON.stringify({ path: req.url }))
  })
  server.on('connection', (s) => connections.push(`${s.remotePort}`))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  release()
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

const get = (path: string, init = {}) => httpFetch(`${base}${path}`, init) as Promise<Res>

describe('the model client fetch over node:http', () => {
  it('sends the method, headers and string body, and reads status, headers and JSON back', async () => {
    const res = await get('/json', { method: 'POST', headers: new FetchHeaders({ 'X-Api-Key': 'k', 'content-type': 'application/json' }), body: '{"a":"é"}' })
    expect(res.status).toBe(200)
    expect(res.ok).toBe(true)
    expect(await res.json()).toEqual({ path: '/json' })
    expect(res.headers.get('Content-Type')).toBe('application/json')
    expect(res.headers.getSetCookie()).toEqual(['a=1', 'b=2'])
    const got = seen.at(-1)!
    expect(got).toMatchObject({ method: 'POST', body: '{"a":"é"}' })
    expect(got.headers).toMatchObject({ 'x-api-key': 'k', 'content-length': String(Buffer.byteLength('{"a":"é"}')) })
  })

  it('sends large bodies whole, several at once and one after another (one buffer is kept between requests)', async () => {
    const body = (i: number) => JSON.stringify({ i, text: `round ${i}: é 漢字 🙂 `.repeat(20_000) })
    const sent = [0, 1, 2].map((i) => get('/json', { method: 'POST', body: body(i) }).then((r) => r.text()))
    await Promise.all(sent)
    await (await get('/json', { method: 'POST', body: body(3) })).text()
    const got = seen.slice(-4).map((r) => r.body).sort()
    expect(got.map((b) => b === body(JSON.parse(b).i))).toEqual([true, true, true, true])
    expect(got.map((b) => JSON.parse(b).i)).toEqual([0, 1, 2, 3])
    expect(seen.slice(-4).every((r) => r.headers['content-length'] === String(Buffer.byteLength(r.body)))).toBe(true)
  })

  it('takes headers as a record or pairs, and gives a 404 as a response, not an error', async () => {
    const res = await get('/missing', { headers: [['x-one', '1'], ['X-One', '2']] })
    expect(res.status).toBe(404)
    expect(res.ok).toBe(false)
    expect(await res.text()).toContain('missing')
    expect(seen.at(-1)!.headers['x-one']).toBe('1, 2')
  })

  it('gives a 204 no body', async () => {
    const res = await get('/empty')
    expect(res.status).toBe(204)
    expect(res.body).toBeNull()
  })

  it('streams the body as it arrives, and an abort mid-body ends it with the signal\'s AbortError', async () => {
    const controller = new AbortController()
    const res = await get('/stream', { signal: controller.signal })
    expect(res.headers.get('request-id')).toBe('req_1')
    const chunks: string[] = []
    const read = (async () => {
      for await (const chunk of res.body!) {
        chunks.push(Buffer.from(chunk).toString())
        controller.abort()
      }
    })()
    await expect(read).rejects.toMatchObject({ name: 'AbortError' })
    expect(chunks).toEqual(['event: one\n\n'])
    release()
  })

  it('rejects an aborted signal before sending, and a refused connection as "fetch failed" with the cause', async () => {
    await expect(get('/json', { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' })
    const err = await (httpFetch('http://127.0.0.1:1/') as Promise<unknown>).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(TypeError)
    expect(err).toMatchObject({ message: 'fetch failed', cause: { code: 'ECONNREFUSED' } })
  })

  it('a preconnected connection is the one the next request uses, and keep-alive reuses it', async () => {
    // A second server, so no idle connection of the earlier tests is about.
    const other = createServer((req, res) => res.end(`${req.socket.remotePort}`))
    const accepted: number[] = []
    other.on('connection', (s) => accepted.push(s.remotePort!))
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(other.address() as AddressInfo).port}`
    try {
      const connected = new Promise((resolve) => other.once('connection', resolve))
      preconnect(url, {})
      await connected
      const first = await (httpFetch(url) as Promise<Res>)
      // Node keeps whether a socket asked for TCP_NODELAY under this symbol; its agent asks for its own connections.
      const socket = (first.body as unknown as { socket: object }).socket
      const noDelay = Object.getOwnPropertySymbols(socket).find((s) => s.description === 'kSetNoDelay')!
      expect((socket as Record<symbol, unknown>)[noDelay]).toBe(true)
      const ports = [await first.text(), await (await (httpFetch(url) as Promise<Res>)).text()]
      expect(ports).toEqual([String(accepted[0]), String(accepted[0])])
      expect(accepted).toHaveLength(1)
    } finally {
      other.closeAllConnections()
      await new Promise((resolve) => other.close(resolve))
    }
  })
})

describe('FetchHeaders', () => {
  it('is case-insensitive, joins appended values, iterates sorted and lowercased, and trims values', () => {
    const h = new FetchHeaders({ B: ' 2 ', a: '1' })
    h.append('A', '3')
    expect([...h]).toEqual([['a', '1, 3'], ['b', '2']])
    expect(h.has('b')).toBe(true)
    h.delete('B')
    h.set('c', 'x')
    expect(Object.fromEntries(h.entries())).toEqual({ a: '1, 3', c: 'x' })
    expect(String(h)).toBe('[object Headers]')
  })
})
