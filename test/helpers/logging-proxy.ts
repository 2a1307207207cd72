import { createServer, request, type Server } from 'node:http'
import { connect, type AddressInfo, type Socket } from 'node:net'

export interface ProxyHit { method: string; url: string; auth: string | null }

export interface LoggingProxy { url: string; hits: ProxyHit[]; close(): Promise<void> }

/**
 * An HTTP proxy on 127.0.0.1 that records what it is asked: absolute-URI requests are forwarded,
 * CONNECT opens a tunnel. Every host it is asked for is reached on 127.0.0.1, so a test can name
 * hosts no resolver knows.
 */
export async function startLoggingProxy(): Promise<LoggingProxy> {
  const hits: ProxyHit[] = []
  const sockets = new Set<Socket>()
  const server: Server = createServer((req, res) => {
    hits.push({ method: req.method!, url: req.url!, auth: req.headers['proxy-authorization'] ?? null })
    const target = new URL(req.url!)
    const headers = { ...req.headers }
    delete headers['proxy-authorization']
    const upstream = request({ host: '127.0.0.1', port: target.port, path: target.pathname + target.search, method: req.method, headers }, (up) => {
      res.writeHead(up.statusCode!, up.headers)
      up.pipe(res)
    })
    upstream.on('error', () => res.writeHead(502).end())
    req.pipe(upstream)
  })
  server.on('connect', (req, client: Socket, head: Buffer) => {
    hits.push({ method: 'CONNECT', url: req.url!, auth: req.headers['proxy-authorization'] ?? null })
    const upstream = connect(Number(new URL(`http://${req.url}`).port), '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
      upstream.write(head)
      upstream.pipe(client).on('error', () => {})
      client.pipe(upstream)
    })
    sockets.add(upstream).add(client)
    upstream.on('error', () => client.destroy())
    client.on('error', () => upstream.destroy())
  })
  server.on('connection', (s) => sockets.add(s))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    close: () => {
      for (const s of sockets) s.destroy()
      return new Promise((resolve) => server.close(() => resolve()))
    },
  }
}
