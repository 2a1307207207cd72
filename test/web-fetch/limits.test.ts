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
    if (req.url === '/long') {
      res.writeHead(200, { 'content-type': 'text/plain' })
      res.end('a'.repeat(1000) + 'b'.repeat(1000) + 'c'.repeat(500))
      return
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

const fetchCall = (path: string, offset?: number) => ({ tool_use: { name: 'WebFetch', input: { url: `${base}${path}`, prompt: 'What is it about?', ...(offset === undefined ? {} : { offset }) } } })
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
  it('a page longer than the model reads says where it stopped, and offset reads on from there', async () => {
    const run = await runScript([
      { reply: [fetchCall('/long')] },
      { reply: 'As.', expect: { lastUserText: "This is characters 0 to 1000 of the page's 2500." } },
      { reply: [fetchCall('/long', 2000)] },
      { reply: 'Cs.', expect: { lastUserText: "This is characters 2000 to 2500 of the page's 2500." } },
      { reply: [fetchCall('/long', 2500)] },
      { reply: 'ok' },
    ], 'go', { mods: [toolsMod(), withOptions(webFetch, { maxContentChars: 1000 })] })
    expect(run.result).toMatchObject({ subtype: 'success', result: 'ok' })
    const pageOf = (i: number) => run.requests[i]!.body.messages[0].content as string
    expect(pageOf(1)).toContain(`---\n${'a'.repeat(1000)}\n---`)
    expect(pageOf(3)).toContain(`---\n${'c'.repeat(500)}\n---`)
    expect(resultOf(run, 0).tool_use_result.result).toBe("As.\n\n[This answer read characters 0 to 1000 of the page's 2500; 1500 were not read. To read on, call WebFetch again with the same url and offset 1000.]")
    expect(resultOf(run, 1).tool_use_result.result).toBe('Cs.')
    // Past the end there is nothing for the small model to read: it is not asked.
    expect(resultOf(run, 2).message.content[0]).toMatchObject({ content: "There is nothing to read at offset 2500: the page's text is 2500 characters long." })
    expect(run.requests).toHaveLength(6)
  })
})
