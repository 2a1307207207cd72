import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import webFetch from '../../mods/web-fetch/index.js'
import { startLoggingProxy, type LoggingProxy } from '../helpers/logging-proxy.js'
import { withOptions } from '../helpers/with-options.js'
import { runScript, toolsMod } from '../loop/helpers.js'

// WebFetch behind a proxy, as Claude Code sends it: the session's proxy variables and NO_PROXY
// decide, per hop. The model's own requests go direct (NO_PROXY names 127.0.0.1, where the fake API is).

let server: Server
let proxy: LoggingProxy
let port: number
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/moved') return void res.writeHead(301, { location: '/page' }).end()
    if (req.url === '/hang') return
    if (req.url === '/big') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(200_000))
    res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Version 4.2</h1>')
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  port = (server.address() as AddressInfo).port
  proxy = await startLoggingProxy()
})
afterAll(async () => {
  await proxy.close()
  server.closeAllConnections()
  await new Promise<void>((r) => server.close(() => r()))
})

// localhost stays http (a loopback host), so the proxy is asked with an absolute URI it can log.
const fetchCall = (path: string) => ({ tool_use: { name: 'WebFetch', input: { url: `http://localhost:${port}${path}`, prompt: 'Which version?' } } })
const limited = withOptions(webFetch, { timeoutMs: 300, maxBytes: 64 * 1024 })
const resultText = (run: Awaited<ReturnType<typeof runScript>>) => (run.messages.find((m: any) => m.type === 'user') as any).message.content[0]

describe('WebFetch behind a proxy', () => {
  it('goes through HTTP_PROXY, each redirect hop too, and reads the page', async () => {
    proxy.hits.length = 0
    const run = await runScript([
      { reply: [fetchCall('/moved')] },
      { reply: 'It is 4.2.', expect: { lastUserText: 'Version 4.2' } },
      { reply: 'ok' },
    ], 'go', { mods: [toolsMod(), webFetch], env: { HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' } })
    expect(run.result).toMatchObject({ subtype: 'success', result: 'ok' })
    expect(proxy.hits.map((h) => `${h.method} ${h.url}`)).toEqual([`GET http://localhost:${port}/moved`, `GET http://localhost:${port}/page`])
  })

  it('a host NO_PROXY names goes direct', async () => {
    proxy.hits.length = 0
    const run = await runScript([{ reply: [fetchCall('/page')] }, { reply: 'It is 4.2.' }, { reply: 'ok' }], 'go', {
      mods: [toolsMod(), webFetch], env: { HTTPS_PROXY: proxy.url, NO_PROXY: '127.0.0.1, localhost' },
    })
    expect(run.result).toMatchObject({ subtype: 'success', result: 'ok' })
    expect(proxy.hits).toEqual([])
  })

  it('keeps the size cap and the timeout through the proxy', async () => {
    const big = await runScript([
      { reply: [fetchCall('/big')] },
      { reply: 'Placeholder.', expect: { lastUserText: 'only its first 65,536 bytes were read' } },
      { reply: 'ok' },
    ], 'go', { mods: [toolsMod(), limited], env: { HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' } })
    expect(big.result).toMatchObject({ subtype: 'success', result: 'ok' })
    const hang = await runScript([{ reply: [fetchCall('/hang')] }, { reply: 'ok' }], 'go', { mods: [toolsMod(), limited], env: { HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' } })
    expect(resultText(hang)).toMatchObject({ is_error: true, content: expect.stringContaining('did not arrive within 300 ms (the timeout)') })
    expect(proxy.hits.map((h) => h.url)).toContain(`http://localhost:${port}/hang`)
  })
})
