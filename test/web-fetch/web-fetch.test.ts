import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
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
    } else if (req.url === '/latin1') {
      res.writeHead(200, { 'content-type': 'text/plain; charset=iso-8859-1' })
      res.end(Buffer.from('Caf\xe9 \x93menu\x94 \x96 10\x80', 'latin1'))
    } else if (req.url === '/sjis') {
      res.writeHead(200, { 'content-type': 'text/html' })
      res.end(Buffer.concat([Buffer.from('<html><head><meta charset="Shift_JIS"></head><body><p>'), Buffer.from([0x82, 0xb1, 0x82, 0xf1, 0x82, 0xc9, 0x82, 0xbf, 0x82, 0xcd]), Buffer.from('</p></body></html>')]))
    } else if (req.url === '/image') {
      res.writeHead(200, { 'content-type': 'image/png' })
      res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]))
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
      { reply: 'Version 4.2.', expect: { model: 'claude-haiku-5-5', lastUserText: '# Release notes' } },
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
    expect(Object.keys(run.result.modelUsage)).toContain('claude-haiku-5-5')
  })

  it('reports a redirect to another host instead of following it, and HTTP errors as errors', async () => {
    const run = await runScript([{ reply: [fetchCall(`${base}/away`), fetchCall(`${base}/missing`)] }, { reply: 'ok' }], 'go', { mods: [toolsMod(), webFetch] })
    const [away, missing] = (run.requests[1]!.body as any).messages[2].content
    expect(away.content).toContain('https://example.org/elsewhere')
    expect(missing).toMatchObject({ is_error: true })
    expect(missing.content).toContain('404')
  })

  it('decodes a page in the charset its header or its meta tag declares, and does not read binary content as text', async () => {
    const run = await runScript([
      { reply: [fetchCall(`${base}/latin1`)] },
      { reply: 'first' },
      { reply: [fetchCall(`${base}/sjis`)] },
      { reply: 'second' },
      { reply: [fetchCall(`${base}/image`)] },
      { reply: 'ok' },
    ], 'go', { mods: [toolsMod(), webFetch] })
    const pageOf = (i: number) => (run.requests[i]!.body as any).messages[0].content as string
    // windows-1252 is what the web means by iso-8859-1: its 0x80-0x9F are quotes, dashes and the euro sign.
    expect(pageOf(1)).toContain('Café “menu” – 10€')
    expect(pageOf(3)).toContain('こんにちは')
    // The image never reaches a model as text: the model is told what it is.
    expect(run.requests).toHaveLength(6)
    const image = (run.requests[5]!.body as any).messages.at(-1).content[0]
    expect(image.content).toContain('/image is not a text page (image/png, 12 bytes)')
  })

  it('saves a binary response (a PDF, an image) where Read can open it, and names the file', async () => {
    const home = mkdtempSync(join(tmpdir(), 'webfetch-home-'))
    const run = await runScript([{ reply: [fetchCall(`${base}/image`)] }, { reply: 'ok' }], 'go', { mods: [toolsMod(), webFetch], env: { MODLOOP_HOME: home } })
    const image = (run.requests[1]!.body as any).messages.at(-1).content[0]
    expect(image.is_error).toBeFalsy()
    const path = /saved to (\S+\.png):/.exec(image.content)?.[1]
    expect(path?.startsWith(home)).toBe(true)
    expect([...readFileSync(path!)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])
    rmSync(home, { recursive: true, force: true })
  })

  it('upgrades http to https except on loopback', () => {
    expect(normaliseUrl('http://example.com/a').protocol).toBe('https:')
    expect(normaliseUrl('http://127.0.0.1:8080/a').protocol).toBe('http:')
    expect(() => normaliseUrl('file:///etc/passwd')).toThrow(/only http and https/)
  })
})
