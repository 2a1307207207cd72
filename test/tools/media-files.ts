import { deflateSync } from 'node:zlib'

// Small images, PDFs and notebooks made in the test, so no binary fixture is committed.

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})
const crc32 = (b: Buffer) => {
  let c = 0xffffffff
  for (const x of b) c = CRC_TABLE[(c ^ x) & 0xff]! ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}
const u32 = (n: number) => {
  const b = Buffer.alloc(4)
  b.writeUInt32BE(n)
  return b
}
const chunk = (type: string, data: Buffer) => {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
  return Buffer.concat([u32(data.length), body, u32(crc32(body))])
}

/** An RGB PNG whose pixels `pixel` gives; `noise` makes it incompressible (a large file from few pixels). */
export function png(width: number, height: number, pixel: (x: number, y: number) => [number, number, number] = () => [255, 0, 0]): Buffer {
  const raw = Buffer.alloc((width * 3 + 1) * height)
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) raw.set(pixel(x, y), y * (width * 3 + 1) + 1 + x * 3)
  }
  const ihdr = Buffer.concat([u32(width), u32(height), Buffer.from([8, 2, 0, 0, 0])])
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))])
}

/** Pixels no compressor can shrink (a seeded generator, so runs are alike). */
export function noise(): (x: number, y: number) => [number, number, number] {
  let s = 12345
  const next = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) >>> 16) & 0xff
  return () => [next(), next(), next()]
}

/** A 1x1 GIF. */
export const GIF = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64')

/** The start of a WebP (VP8X) of the given size: enough for its header, not a picture. */
export function webpHeader(width: number, height: number): Buffer {
  const b = Buffer.alloc(40)
  b.write('RIFF', 0, 'latin1')
  b.writeUInt32LE(32, 4)
  b.write('WEBPVP8X', 8, 'latin1')
  b.writeUInt32LE(10, 16)
  b.writeUIntLE(width - 1, 24, 3)
  b.writeUIntLE(height - 1, 27, 3)
  return b
}

/** A PDF of `pages` pages, each saying "Page N", written out by hand (objects, xref, trailer). */
export function pdf(pages: number): Buffer {
  const objects: string[] = ['<< /Type /Catalog /Pages 2 0 R >>']
  const kids = Array.from({ length: pages }, (_, i) => `${3 + i} 0 R`).join(' ')
  objects.push(`<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`)
  const font = 3 + 2 * pages
  for (let i = 0; i < pages; i++) {
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents ${3 + pages + i} 0 R /Resources << /Font << /F1 ${font} 0 R >> >> >>`)
  }
  for (let i = 0; i < pages; i++) {
    const text = `BT /F1 24 Tf 20 100 Td (Page ${i + 1}) Tj ET`
    objects.push(`<< /Length ${text.length} >>\nstream\n${text}\nendstream`)
  }
  objects.push('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>')
  let out = '%PDF-1.4\n'
  const offsets: number[] = []
  objects.forEach((o, i) => {
    offsets.push(out.length)
    out += `${i + 1} 0 obj\n${o}\nendobj\n`
  })
  const xref = out.length
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`
  return Buffer.from(out, 'latin1')
}

/** A notebook with every kind of cell and output (the one compared with Claude Code's Read). */
export function notebook(plotPng: Buffer): string {
  return JSON.stringify({
    cells: [
      { cell_type: 'markdown', metadata: {}, source: ['# Title\n', 'Some *text*'] },
      { cell_type: 'code', execution_count: 1, id: 'abc123', metadata: {}, source: ['print(1+1)\n', 'x=3'], outputs: [{ output_type: 'stream', name: 'stdout', text: ['2\n'] }] },
      { cell_type: 'code', execution_count: 2, metadata: {}, source: 'x', outputs: [{ output_type: 'execute_result', execution_count: 2, data: { 'text/plain': ['3'] }, metadata: {} }] },
      { cell_type: 'code', execution_count: 3, metadata: {}, source: '1/0', outputs: [{ output_type: 'error', ename: 'ZeroDivisionError', evalue: 'division by zero', traceback: ['\u001b[0;31mZeroDivisionError\u001b[0m: division by zero'] }] },
      { cell_type: 'code', execution_count: 4, metadata: {}, source: 'plot()', outputs: [{ output_type: 'display_data', data: { 'image/png': plotPng.toString('base64'), 'text/plain': ['<Figure>'] }, metadata: {} }] },
      { cell_type: 'raw', metadata: {}, source: 'raw stuff' },
    ],
    metadata: { kernelspec: { language: 'python', name: 'python3' }, language_info: { name: 'python' } },
    nbformat: 4,
    nbformat_minor: 5,
  }, null, 1)
}
