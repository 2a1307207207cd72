import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import webFetch from '../../mods/web-fetch/index.js'
import { withOptions } from '../helpers/with-options.js'
import { runScript, toolsMod } from '../loop/helpers.js'

const LINE = `${'lorem ipsum dolor sit amet '.repeat(3).trim()}\n`
const TWO_MB = LINE.repeat(Math.ceil((2 * 1024 * 1024) / LINE.length))

let server: Server
let base: string
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/hang') return // never answers
    if (req.url === '/slow-body') {
      res.writeHead(200, { 'content-type': 'text/plain' })
      res.write('the start, then nothing')
      return // the body never ends
    }
    if (req.url === '/big') {
      res.writeHead(200, { 'content-type': 'text/plain' })
      res.end(TWO_MB)
      return
    }
    res.writeHead(404)
    res.end()
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((r) => {
  server.close(() => r())
  server.closeAllConnections()
}))

const fetchCall = (path: string) => ({ tool_use: { name: 'WebFetch', input: { url: `${base}${path}`, prompt: 'What is it about?' } } })
const limited = withOptions(webFetch, { timeoutMs: 300, maxBytes: 64 * 1024 })
const resultOf = (run: Awaited<ReturnType<typeof runScript>>, i = 0) => (run.messages.filter((m: any) => m.type === 'user') as any[])[i]

describe('WebFetch limits', () => {
  it('a page that never arrives ends at the timeout with an error saying so', async () => {
    // /hang never answers: the run ending at all is the timeout at work.
    const run = await runScript([{ reply: [fetchCall('/hang'), fetchCall('/slow-body')] }, { reply: 'ok' }], 'go', { mods: [toolsMod(), limited] })
    for (const i of [0, 1]) {
      expect(resultOf(run, i).message.content[0]).toMatchObject({ is_error: true, content: expect.stringContaining('did not arrive within 300 ms (the timeout)') })
    }
    expect(run.result).toMatchObject({ subtype: 'success', result: 'ok' })
  })

  it('a 2 MB page is cut at maxBytes, and the model reads a note saying so', async () => {
    const run = await runScript([
      { reply: [fetchCall('/big')] },
      { reply: 'Placeholder text.', expect: { lastUserText: 'only its first 65,536 bytes were read' } },
      { reply: 'ok' },
    ], 'go', { mods: [toolsMod(), limited] })
    expect(run.result).toMatchObject({ subtype: 'success', result: 'ok' })
    const page = run.requests[1]!.body.messages[0].content as string
    expect(page.length).toBeLessThan(70 * 1024)
    expect(page).toContain('[The page is longer than the 65,536-byte limit: only its first 65,536 bytes were read.]')
    expect(resultOf(run).tool_use_result).toMatchObject({ bytes: 65_536, truncated: true, code: 200, result: 'Placeholder text.' })
  })
})
