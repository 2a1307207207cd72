import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { connect, type AddressInfo, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createServer as createTlsServer } from 'node:tls'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { httpFetch } from '../../runtime/model/http-fetch.js'
import { proxyFor } from '../../runtime/model/proxy-env.js'
import { startFakeAnthropic, type FakeAnthropic } from '../../testing/fake-anthropic.js'
import { builtModloop } from '../helpers/built-cli.js'
import { startLoggingProxy, type LoggingProxy } from '../helpers/logging-proxy.js'

const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url))
const api = new URL('http://api.corp.example:8080/v1/messages')

describe('which proxy a request takes', () => {
  it('one proxy for every scheme: https_proxy, HTTPS_PROXY, http_proxy, then HTTP_PROXY', () => {
    expect(proxyFor(api, {})).toBeUndefined()
    expect(proxyFor(api, { HTTP_PROXY: 'http://p:1' })).toBe('http://p:1')
    expect(proxyFor(api, { HTTPS_PROXY: 'http://s:1', HTTP_PROXY: 'http://p:1' })).toBe('http://s:1')
    expect(proxyFor(api, { HTTPS_PROXY: 'http://S:1', https_proxy: 'http://s:1' })).toBe('http://s:1')
    expect(proxyFor(api, { http_proxy: 'http://l:1', HTTP_PROXY: 'http://p:1' })).toBe('http://l:1')
    expect(proxyFor(api, { HTTP_PROXY: 'p:3128' })).toBe('http://p:3128')
  })

  it('NO_PROXY: *, a domain and the hosts under it, an IP, a CIDR block, each with or without a port', () => {
    const through = (noProxy: string, url = api) => proxyFor(url, { HTTP_PROXY: 'http://p:1', NO_PROXY: noProxy }) !== undefined
    for (const bypass of ['*', 'corp.example', '.corp.example', '*.corp.example', 'API.CORP.EXAMPLE', 'example', 'other, api.corp.example', 'other api.corp.example', 'api.corp.example:8080']) {
      expect(through(bypass), bypass).toBe(false)
    }
    for (const keep of ['', 'x.api.corp.example', 'orp.example', 'api.corp.example:9', '10.0.0.0/8']) expect(through(keep), keep).toBe(true)
    const local = new URL('http://127.0.0.1:4000/')
    expect(through('127.0.0.0/8', local)).toBe(false)
    expect(through('127.0.0.1', local)).toBe(false)
    expect(through('127.0.0.1:4000', local)).toBe(false)
    expect(through('10.0.0.0/8', local)).toBe(true)
    expect(through('[::1]', new URL('http://[::1]:4000/'))).toBe(false)
    expect(proxyFor(local, { HTTP_PROXY: 'http://p:1', NO_PROXY: '*', no_proxy: 'other' })).toBe('http://p:1')
  })
})

describe('the model client behind a proxy', () => {
  let proxy: LoggingProxy
  let server: FakeAnthropic
  beforeAll(async () => {
    proxy = await startLoggingProxy()
    server = await startFakeAnthropic({ script: [{ reply: 'Hello.' }] })
  })
  afterAll(async () => {
    await proxy.close()
    await server.close()
  })

  it('an http URL goes to the proxy as an absolute-URI request, its credentials as Proxy-Authorization; NO_PROXY goes direct', async () => {
    // A host no resolver knows: only the proxy can reach it.
    const url = `http://api.corp.example:${new URL(server.url).port}/nothing`
    const proxyUrl = proxy.url.replace('//', '//u%40corp:p%3Aw@')
    const res = await httpFetch(url, {}, { HTTP_PROXY: proxyUrl }) as { status: number; text(): Promise<string> }
    await res.text()
    expect(proxy.hits).toEqual([{ method: 'GET', url, auth: `Basic ${Buffer.from('u@corp:p:w').toString('base64')}` }])
    const direct = await httpFetch(`${server.url}/nothing`, {}, { HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' }) as { text(): Promise<string> }
    await direct.text()
    expect(proxy.hits).toHaveLength(1)
  })
})

describe('modloop -p behind a proxy', () => {
  let root: string
  let proxy: LoggingProxy
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'modloop-proxy-'))
    proxy = await startLoggingProxy()
  })
  afterAll(async () => {
    await proxy.close()
    await rm(root, { recursive: true, force: true })
  })

  it('reaches an https API through a CONNECT tunnel, TLS inside it, with the proxy named in settings env', async () => {
    const server = await startFakeAnthropic({ script: [{ reply: 'Hello through the tunnel.' }] })
    // TLS in front of the fake server, with a certificate the child trusts through NODE_EXTRA_CA_CERTS.
    const sockets = new Set<Socket>()
    const tls = createTlsServer({ key: await readFile(join(fixtures, 'localhost-key.pem')), cert: await readFile(join(fixtures, 'localhost-cert.pem')) }, (client) => {
      const upstream = connect(Number(new URL(server.url).port), '127.0.0.1')
      sockets.add(client).add(upstream)
      client.pipe(upstream).pipe(client)
      client.on('error', () => upstream.destroy())
      upstream.on('error', () => client.destroy())
    })
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve))
    const port = (tls.address() as AddressInfo).port
    const home = join(root, 'home')
    await mkdir(join(home, '.claude'), { recursive: true })
    await writeFile(join(home, '.claude', 'settings.json'), JSON.stringify({ env: { HTTPS_PROXY: proxy.url } }))
    try {
      const run = await builtModloop(['-p', 'hi'], {
        cwd: root,
        env: { PATH: process.env.PATH, HOME: home, MODLOOP_HOME: join(root, 'modloop-home'), ANTHROPIC_BASE_URL: `https://localhost:${port}`, ANTHROPIC_API_KEY: 'x', NODE_EXTRA_CA_CERTS: join(fixtures, 'localhost-cert.pem') },
      })
      expect(run.err).toBe('')
      expect(run.out).toContain('Hello through the tunnel.')
      expect(proxy.hits).toEqual([{ method: 'CONNECT', url: `localhost:${port}`, auth: null }])
      expect(server.requests).toHaveLength(1)
    } finally {
      for (const s of sockets) s.destroy()
      await new Promise((resolve) => tls.close(resolve))
      await server.close()
    }
  })
})
