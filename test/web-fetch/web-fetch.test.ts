import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import webFetch from '../../mods/web-fetch/index.js'
import { normaliseUrl } from '../../mods/web-fetch/fetch-page.js'
import { runScript, toolsMod } from '../loop/helpers.js'

let server: Server
let base: string
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/page') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      res.end('<html><body><h1>Release notes</h1><p>Version <b>4.2</b> adds <a href="/x">streaming</a>.</p><script>evil()</script></body></html>')
    } else if (req.url === '/moved') {
      res.writeHead(301, { location: '/page' })
      res.end()
    } else if (req.url === '/away') {
      res.writeHead(302, { location: 'https://example.org/elsewhere' })
      res.end()
    } else {
      res.writeHead(404)
      res.end('not here')
    }
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((r) => server.close(() => r())))

const fetchCall = (url: string) => ({ tool_use: { name: 'WebFetch', input: { url, prompt: 'Which version?' } } })

describe('WebFetch', () => {
  it('fetches, turns HTML into markdown, and a small model call answers over it', async () => {
    const run = await runScript([
      { reply: [fetchCall(`${base}/moved`)] },
      { reply: 'Version 4.2.', expect: { model: 'claude-haiku-4-5', lastUserText: '# Release notes' } },
      { reply: 'It is 4.2' },
    ], 'go', { mods: [toolsMod(), webFetch] })
    const smallCall = run.requests[1]!.body as any
    expect(smallCall.messages[0].content).toContain('Version **4.2** adds [streaming](/x)')
    expect(smallCall.messages[0].content).not.toContain('evil()')
    expect(smallCall.tools).toBeUndefined()
    const result = (run.requests[2]!.body as any).messages[2].content[0]
    expect(result).toMatchObject({ content: 'Version 4.2.' })
    const toolUse = run.messages.find((m: any) => m.type === 'user') as any
    expect(toolUse.tool_use_result).toMatchObject({ code: 200, url: `${base}/page`, result: 'Version 4.2.' })
    expect(Object.keys(run.result.modelUsage)).toContain('claude-haiku-4-5')
  })

  it('reports a redirect to another host instead of following it, and HTTP errors as errors', async () => {
    const run = await runScript([{ reply: [fetchCall(`${base}/away`), fetchCall(`${base}/missing`)] }, { reply: 'ok' }], 'go', { mods: [toolsMod(), webFetch] })
    const [away, missing] = (run.requests[1]!.body as any).messages[2].content
    expect(away.content).toContain('https://example.org/elsewhere')
    expect(missing).toMatchObject({ is_error: true })
    expect(missing.content).toContain('404')
  })

  it('upgrades http to https except on loopback', () => {
    expect(normaliseUrl('http://example.com/a').protocol).toBe('https:')
    expect(normaliseUrl('http://127.0.0.1:8080/a').protocol).toBe('http:')
    expect(() => normaliseUrl('file:///etc/passwd')).toThrow(/only http and https/)
  })
})
