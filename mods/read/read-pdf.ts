import type { ToolOutput } from '../../core/tools/tool.js'
import { describeError } from '../../core/errors.js'
import { failure } from '../_shared/register-tool.js'
import { kb } from './read-image.js'

/** A PDF of more pages is read only a page range at a time, as in Claude Code. */
export const MAX_WHOLE_PAGES = 10
/** The most pages one call reads. */
export const MAX_PAGES_PER_READ = 20
/** A whole PDF over this is not sent (Claude Code's limit; the API takes 32 MB a request). */
export const MAX_WHOLE_BYTES = 20 * 1024 * 1024

export interface PageRange { first: number; last: number }

type PdfLib = typeof import('@pdfme/pdf-lib')
let pdfLib: Promise<PdfLib> | undefined
// pdf-lib (pure JavaScript) loads on the first PDF read, never at start.
const loadPdfLib = () => (pdfLib ??= import('@pdfme/pdf-lib').then((lib) => (quietParserWarnings(), lib)))

// What pdf-lib's parser says with console.warn of a damaged file, which it reads past: printed, it
// would land in the middle of the terminal's screen. Other warnings pass.
const PARSER_WARNINGS = /^(Trying to parse invalid object|Invalid object ref|Removing parsed object|Parsed number that is too large)/

function quietParserWarnings(): void {
  const warn = console.warn
  console.warn = (...args: unknown[]) => {
    if (typeof args[0] === 'string' && PARSER_WARNINGS.test(args[0])) return
    warn.apply(console, args)
  }
}

/** "3", "1-5" or "4-" (to the end, within the per-call limit); 1-based. */
export function parsePages(pages: string): PageRange | string {
  const m = /^\s*(\d+)\s*(?:-\s*(\d*)\s*)?$/.exec(pages)
  const first = m ? Number(m[1]) : 0
  const last = !m ? 0 : m[2] === undefined ? first : m[2] === '' ? first + MAX_PAGES_PER_READ - 1 : Number(m[2])
  if (!m || first < 1 || last < first) {
    return `Invalid pages parameter: "${pages}". Give one page ("3") or one range ("1-5"), not a list. To read several pages or ranges, read each one separately. Pages are 1-indexed.`
  }
  if (last - first + 1 > MAX_PAGES_PER_READ) return `Page range "${pages}" exceeds maximum of ${MAX_PAGES_PER_READ} pages per request. Please use a smaller range.`
  return { first, last }
}

/**
 * A PDF as a document block, the form the API reads (its text and each page as an image). A PDF
 * of more than ten pages needs `pages`; the pages asked for are copied into a PDF of their own
 * (Claude Code sends them as page images, drawn by poppler's pdftoppm; a PDF of them keeps their
 * text, and needs no program installed).
 */
export async function readPdf(bytes: Buffer, shown: string, pages: string | undefined): Promise<ToolOutput> {
  const range = pages === undefined ? undefined : parsePages(pages)
  if (typeof range === 'string') return failure(range)
  if (bytes.length === 0) return failure(`PDF file is empty: ${shown}`)
  if (!bytes.subarray(0, 1024).toString('latin1').includes('%PDF-')) return failure(`File is not a valid PDF (missing %PDF- header): ${shown}`)
  if (!range && bytes.length > MAX_WHOLE_BYTES) {
    return failure(`${shown} is ${kb(bytes.length)}, more than a whole PDF Read sends (${kb(MAX_WHOLE_BYTES)}). Use the pages parameter to read specific page ranges (e.g., pages: "1-5"). Maximum ${MAX_PAGES_PER_READ} pages per request.`)
  }
  const { PDFDocument } = await loadPdfLib()
  let doc: Awaited<ReturnType<typeof PDFDocument.load>>
  try {
    doc = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false })
  } catch (err) {
    return failure(`${shown} could not be read as a PDF: ${describeError(err)}. Its text may still be had with pdftotext through Bash.`)
  }
  // The API cannot open an encrypted PDF, and its pages cannot be copied out without the password.
  if (doc.isEncrypted) return failure(`${shown} is encrypted (password-protected); Read cannot send it. Provide an unprotected version, or try pdftotext through Bash.`)
  const total = doc.getPageCount()
  if (!range) {
    if (total > MAX_WHOLE_PAGES) {
      return failure(`This PDF has ${total} pages, which is too many to read at once. Use the pages parameter to read specific page ranges (e.g., pages: "1-5"). Maximum ${MAX_PAGES_PER_READ} pages per request.`)
    }
    return pdfOutput(shown, bytes.length, bytes, total, `PDF file read: ${shown} (${kb(bytes.length)})`)
  }
  if (range.first > total) {
    const all = total === 1 ? '"1"' : `"1-${Math.min(total, MAX_PAGES_PER_READ)}"`
    return failure(`Requested page ${range.first} is outside the document (PDF has ${total} page${total === 1 ? '' : 's'}). Use a range within 1-${total}, maximum ${MAX_PAGES_PER_READ} pages per request (e.g. pages: ${all}).`)
  }
  const last = Math.min(range.last, total)
  let part: Uint8Array
  try {
    const out = await PDFDocument.create({ updateMetadata: false })
    const indices = Array.from({ length: last - range.first + 1 }, (_, i) => range.first - 1 + i)
    for (const page of await out.copyPages(doc, indices)) out.addPage(page)
    part = await out.save()
  } catch (err) {
    return failure(`The pages of ${shown} could not be taken out of it: ${describeError(err)}`)
  }
  const which = range.first === last ? `page ${last}` : `pages ${range.first}-${last}`
  return pdfOutput(shown, bytes.length, Buffer.from(part), total, `PDF pages extracted: ${which} of ${total} from ${shown} (${kb(bytes.length)})`, { first: range.first, last })
}

function pdfOutput(shown: string, originalSize: number, sent: Buffer, totalPages: number, line: string, range?: PageRange): ToolOutput {
  const base64 = sent.toString('base64')
  return {
    result: { type: 'pdf', file: { filePath: shown, base64, originalSize, totalPages, ...(range ? { firstPage: range.first, lastPage: range.last } : {}) } },
    text: line,
    content: [{ type: 'text', text: line }, { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: base64 } }],
  }
}
