import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startLoggingProxy, type LoggingProxy } from '../helpers/logging-proxy.js'
import { makeBox, run, writeSettings, type Box } from './helpers.js'

// `http` hooks behind a proxy, as Claude Code posts them: the session's proxy variables and
// NO_PROXY decide. The model's requests go direct (NO_PROXY names 127.0.0.1, where the fake API is).

let box: Box
let proxy: LoggingProxy
let hooks: Server
let posted: string[]
let port: number
beforeAll(async () => {
  proxy = await startLoggingProxy()
  hooks = createServer((req, res) => {
    posted.push(`${req.method} ${req.url}`)
    req.resume().on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'the hook was reached' } })))
  })
  await new Promise<void>((r) => hooks.listen(0, '127.0.0.1', r))
  port = (hooks.address() as AddressInfo).port
})
afterAll(async () => {
  await proxy.close()
  hooks.closeAllConnections()
  await new Promise<void>((r) => hooks.close(() => r()))
})
beforeEach(async () => {
  box = await makeBox()
  posted = []
  proxy.hits.length = 0
})
afterEach(() => box.remove())

describe('http hooks behind a proxy', () => {
  it('post through HTTP_PROXY to a host only the proxy can reach; a host NO_PROXY names goes direct', async () => {
    // A host no resolver knows: the hook is reached only through the proxy.
    await writeSettings(box, { UserPromptSubmit: [{ hooks: [{ type: 'http', url: `http://hooks.corp.example:${port}/ups` }] }] })
    const through = await run(box, [{ reply: 'ok', expect: { lastUserText: 'the hook was reached' } }], 'go', { env: { HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' } })
    expect(through.result).toMatchObject({ subtype: 'success', result: 'ok' })
    expect(proxy.hits.map((h) => `${h.method} ${h.url}`)).toEqual([`POST http://hooks.corp.example:${port}/ups`])
    expect(posted).toEqual(['POST /ups'])

    await writeSettings(box, { UserPromptSubmit: [{ hooks: [{ type: 'http', url: `http://127.0.0.1:${port}/direct` }] }] })
    const direct = await run(box, [{ reply: 'ok', expect: { lastUserText: 'the hook was reached' } }], 'go', { env: { HTTPS_PROXY: proxy.url, NO_PROXY: '127.0.0.1' } })
    expect(direct.result).toMatchObject({ subtype: 'success', result: 'ok' })
    expect(proxy.hits).toHaveLength(1)
    expect(posted).toEqual(['POST /ups', 'POST /direct'])
  })
})
