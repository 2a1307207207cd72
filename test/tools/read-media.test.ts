import { truncate, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { inputSchemaOf, sendableContent } from '../../core/tools/tool.js'
import { lastRead } from '../../mods/_shared/read-state.js'
import { restoreReads } from '../../mods/_shared/read-state-restore.js'
import read from '../../mods/read/index.js'
import { imageHeader } from '../../mods/read/image-header.js'
import { GIF, noise, notebook, pdf, png, webpHeader } from './media-files.js'
import { openTools, tempDir, type Tools } from './harness.js'

let tmp: Awaited<ReturnType<typeof tempDir>>
let tools: Tools
const p = (name: string) => join(tmp.dir, name)
const PLOT = png(4, 3, () => [0, 0, 255])

beforeAll(async () => {
  tmp = await tempDir()
  await writeFile(p('red.png'), png(4, 3))
  // A PNG named .jpg: the media type comes from the bytes.
  await writeFile(p('mislabelled.jpg'), png(4, 3))
  await writeFile(p('screenshot'), png(2, 2))
  await writeFile(p('tiny.gif'), GIF)
  await writeFile(p('wide.png'), png(2400, 10, (x) => [x % 256, 0, 0]))
  // ~1 MB of incompressible pixels: over 500 KB, so sent again as JPEG.
  await writeFile(p('photo.png'), png(600, 600, noise()))
  await writeFile(p('huge.webp'), webpHeader(9000, 100))
  await writeFile(p('fake.png'), 'not an image at all')
  await writeFile(p('giant.png'), '')
  await truncate(p('giant.png'), 32 * 1024 * 1024 + 1)
  await writeFile(p('three.pdf'), pdf(3))
  await writeFile(p('twelve.pdf'), pdf(12))
  await writeFile(p('fake.pdf'), 'hello')
  await writeFile(p('nb.ipynb'), notebook(PLOT))
  await writeFile(p('broken.ipynb'), '{"cells": 3}')
  await writeFile(p('big.ipynb'), '')
  // Sparse: the size is all Read looks at before refusing it.
  await truncate(p('big.ipynb'), 100 * 1024 * 1024 + 1)
  tools = await openTools(tmp.dir, [read])
})
afterAll(async () => {
  await tools.close()
  await tmp.remove()
})

const imageOf = (r: { content?: unknown }) => (r.content as { type: string; source: { media_type: string; data: string } }[])[0]!

describe('Read of images', () => {
  it('sends a small image as it is, one image block of the type its bytes say, and does not count it as read for Edit', async () => {
    for (const name of ['red.png', 'mislabelled.jpg', 'screenshot']) {
      const r = await tools.call('Read', { file_path: p(name) })
      expect(r.isError).toBe(false)
      expect(r.content).toHaveLength(1)
      expect(imageOf(r)).toMatchObject({ type: 'image', source: { type: 'base64', media_type: 'image/png' } })
      expect(lastRead(tools.session.id, p(name))).toBeUndefined()
    }
    const red = await tools.call('Read', { file_path: p('red.png') })
    expect(Buffer.from(imageOf(red).source.data, 'base64')).toEqual(png(4, 3))
    expect(red.result).toMatchObject({ type: 'image', file: { type: 'image/png', originalSize: png(4, 3).length, dimensions: { originalWidth: 4, originalHeight: 3, displayWidth: 4, displayHeight: 3 } } })
    const gif = await tools.call('Read', { file_path: p('tiny.gif') })
    expect(imageOf(gif).source.media_type).toBe('image/gif')
  })

  it('scales an image over 2000 px down to fit, and sends one over 500 KB again as JPEG', async () => {
    const wide = await tools.call('Read', { file_path: p('wide.png') })
    expect(imageOf(wide).source.media_type).toBe('image/png')
    expect(imageHeader(Buffer.from(imageOf(wide).source.data, 'base64'))).toEqual({ type: 'image/png', width: 2000, height: 8 })
    expect(wide.result).toMatchObject({ file: { dimensions: { originalWidth: 2400, originalHeight: 10, displayWidth: 2000, displayHeight: 8 } } })

    const photo = await tools.call('Read', { file_path: p('photo.png') })
    const sent = Buffer.from(imageOf(photo).source.data, 'base64')
    expect(imageHeader(sent)).toEqual({ type: 'image/jpeg', width: 600, height: 600 })
    expect(photo.text).toMatch(/^\[image .*photo\.png: 600x600, 1\.\dMB, sent as a 600x600 JPEG of \d+\.\dKB\]$/)
  })

  it('refuses an image the API would refuse and Read cannot shrink, saying its size and the limit; and a file that is no image', async () => {
    const webp = await tools.call('Read', { file_path: p('huge.webp') })
    expect(webp.isError).toBe(true)
    expect(webp.text).toContain('is a 9000x100 WebP')
    expect(webp.text).toContain('at most 8000 px a side and 3.8MB, 5.0MB as base64')
    const giant = await tools.call('Read', { file_path: p('giant.png') })
    expect(giant).toMatchObject({ isError: true, text: expect.stringContaining('more than Read takes (33554432 bytes). Make a smaller copy') })
    const fake = await tools.call('Read', { file_path: p('fake.png') })
    expect(fake).toMatchObject({ isError: true, text: expect.stringContaining('is not a readable image') })
  })
})

describe('Read of PDFs', () => {
  it('sends a PDF of up to ten pages whole, as a document block after a line naming it', async () => {
    const r = await tools.call('Read', { file_path: p('three.pdf') })
    expect(r.isError).toBe(false)
    const [line, doc] = r.content as any[]
    expect(line).toEqual({ type: 'text', text: `PDF file read: ${p('three.pdf')} (${(pdf(3).length / 1024).toFixed(1)}KB)` })
    expect(doc).toMatchObject({ type: 'document', source: { type: 'base64', media_type: 'application/pdf' } })
    expect(Buffer.from(doc.source.data, 'base64')).toEqual(pdf(3))
    expect(r.result).toMatchObject({ type: 'pdf', file: { filePath: p('three.pdf'), originalSize: pdf(3).length, totalPages: 3 } })
    expect(lastRead(tools.session.id, p('three.pdf'))).toBeUndefined()
  })

  it('asks for pages past ten, and sends the pages asked for as a PDF of their own (a range past the end stops at it)', async () => {
    const whole = await tools.call('Read', { file_path: p('twelve.pdf') })
    expect(whole).toMatchObject({ isError: true, text: 'This PDF has 12 pages, which is too many to read at once. Use the pages parameter to read specific page ranges (e.g., pages: "1-5"). Maximum 20 pages per request.' })
    const part = await tools.call('Read', { file_path: p('twelve.pdf'), pages: '11-14' })
    expect(part.isError).toBe(false)
    const [line, doc] = part.content as any[]
    expect(line.text).toBe(`PDF pages extracted: pages 11-12 of 12 from ${p('twelve.pdf')} (${(pdf(12).length / 1024).toFixed(1)}KB)`)
    const { PDFDocument } = await import('@pdfme/pdf-lib')
    const sent = await PDFDocument.load(Buffer.from(doc.source.data, 'base64'))
    expect(sent.getPageCount()).toBe(2)
    const one = await tools.call('Read', { file_path: p('three.pdf'), pages: '2' })
    expect((one.content as any[])[0].text).toContain('page 2 of 3')
  })

  it('refuses a malformed page range, more than 20 pages, a page past the end, and a file that is no PDF', async () => {
    for (const pages of ['1,3', '0', '3-1', 'abc']) {
      const r = await tools.call('Read', { file_path: p('twelve.pdf'), pages })
      expect(r).toMatchObject({ isError: true, text: `Invalid pages parameter: "${pages}". Give one page ("3") or one range ("1-5"), not a list. To read several pages or ranges, read each one separately. Pages are 1-indexed.` })
    }
    expect((await tools.call('Read', { file_path: p('twelve.pdf'), pages: '1-25' })).text).toBe('Page range "1-25" exceeds maximum of 20 pages per request. Please use a smaller range.')
    expect((await tools.call('Read', { file_path: p('three.pdf'), pages: '5' })).text).toBe('Requested page 5 is outside the document (PDF has 3 pages). Use a range within 1-3, maximum 20 pages per request (e.g. pages: "1-3").')
    expect((await tools.call('Read', { file_path: p('fake.pdf') })).text).toBe(`File is not a valid PDF (missing %PDF- header): ${p('fake.pdf')}`)
  })
})

describe('Read of notebooks', () => {
  it('gives every cell with its outputs as Claude Code does, image outputs as image blocks, and counts the notebook as read', async () => {
    const r = await tools.call('Read', { file_path: p('nb.ipynb') })
    expect(r.isError).toBe(false)
    // What Claude Code 2.1.332's Read sent the model for the same notebook.
    expect(r.content).toEqual([
      {
        type: 'text',
        text: '<cell id="cell-0"><cell_type>markdown</cell_type># Title\nSome *text*</cell id="cell-0">\n<cell id="abc123">print(1+1)\nx=3</cell id="abc123">\n\n2\n\n<cell id="cell-2">x</cell id="cell-2">\n\n3\n<cell id="cell-3">1/0</cell id="cell-3">\n\nZeroDivisionError: division by zero\n\u001b[0;31mZeroDivisionError\u001b[0m: division by zero\n<cell id="cell-4">plot()</cell id="cell-4">\n\n<Figure>',
      },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PLOT.toString('base64') } },
      { type: 'text', text: '<cell id="cell-5"><cell_type>raw</cell_type>raw stuff</cell id="cell-5">' },
    ])
    expect(r.result).toMatchObject({ type: 'notebook', file: { filePath: p('nb.ipynb'), cells: expect.arrayContaining([expect.objectContaining({ cellType: 'raw', source: 'raw stuff' })]) } })
    expect(lastRead(tools.session.id, p('nb.ipynb'))).toMatchObject({ whole: true })
  })

  it('refuses a notebook that is not one, and one over 100 MB', async () => {
    expect((await tools.call('Read', { file_path: p('broken.ipynb') })).text).toContain('is not a valid Jupyter notebook')
    const big = await tools.call('Read', { file_path: p('big.ipynb') })
    expect(big).toMatchObject({ isError: true, text: expect.stringContaining(`more than Read takes (${100 * 1024 * 1024} bytes)`) })
  })
})

describe("Read's schema and the blocks a tool result may carry", () => {
  it('has an optional pages string, as Claude Code has', () => {
    const schema = inputSchemaOf(tools.session.tools.get('Read')!) as any
    expect(schema.properties.pages).toMatchObject({ type: 'string' })
    expect(schema.required).toEqual(['file_path'])
  })

  it('passes base64 PDFs through, and nothing else but text and images', () => {
    const doc = { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' } }
    expect(sendableContent([doc])).toEqual([doc])
    expect(sendableContent([{ ...doc, source: { ...doc.source, media_type: 'text/plain' } }])).toBeUndefined()
  })
})

describe('a resumed session', () => {
  it('counts a notebook its history read as read, and an image or a PDF not', async () => {
    const call = (id: string, file: string) => [
      { role: 'assistant' as const, content: [{ type: 'tool_use' as const, id, name: 'Read', input: { file_path: p(file) } }] },
      { role: 'user' as const, content: [{ type: 'tool_result' as const, tool_use_id: id, content: [{ type: 'text' as const, text: 'seen' }] }] },
    ]
    const messages = [...call('a', 'red.png'), ...call('b', 'three.pdf'), ...call('c', 'nb.ipynb')]
    await restoreReads('resumed', messages, Date.now() + 1000)
    expect(lastRead('resumed', p('red.png'))).toBeUndefined()
    expect(lastRead('resumed', p('three.pdf'))).toBeUndefined()
    expect(lastRead('resumed', p('nb.ipynb'))).toMatchObject({ whole: true })
  })
})
