import { readdir } from 'node:fs/promises'
import { basename, dirname, extname, join } from 'node:path'
import { z } from 'zod'
import type { ToolContext, ToolOutput } from '../../core/tools/tool.js'
import { checkPath } from '../_shared/allowed-paths.js'
import { lineWindow } from '../_shared/numbered-lines.js'
import { readRegular } from '../_shared/read-regular.js'
import { hashBytes, recordRead } from '../_shared/read-state.js'
import { failure } from '../_shared/register-tool.js'
import { decodeText, looksBinary } from '../_shared/text-file.js'
import { imageHeader } from './image-header.js'
import { CHARS_PER_TOKEN, partialView, tokensOf, tooManyTokens } from './limits.js'
import { readImage } from './read-image.js'
import { MAX_NOTEBOOK_BYTES, renderNotebook } from './read-notebook.js'
import { MAX_PAGES_PER_READ, readPdf } from './read-pdf.js'
import { builtinInput } from '../_shared/builtin-input.js'

export const DEFAULT_LINES = 2000
export const MAX_LINE_CHARS = 2000
const CUT_NOTE = `... [line cut at ${MAX_LINE_CHARS} characters]`
// Whole-file reads keep the file in memory; past this size a range is pointless without streaming.
const MAX_FILE_BYTES = 32 * 1024 * 1024
// A PDF is read a page range at a time, so a longer one than the API takes whole still serves.
const MAX_PDF_BYTES = 100 * 1024 * 1024
const IMAGE_EXTENSIONS = new Set(['.png', '.jpg', '.jpeg', '.gif', '.webp'])

/** Files Read shows as pictures or cells, not as numbered lines: an editor's text buffer of one is no help. */
export const readsAsMedia = (path: string): boolean => {
  const ext = extname(path).toLowerCase()
  return IMAGE_EXTENSIONS.has(ext) || ext === '.pdf' || ext === '.ipynb'
}
const BINARY_EXTENSIONS = new Set([
  '.png', '.jpg', '.jpeg', '.gif', '.webp', '.bmp', '.ico', '.tiff', '.pdf', '.zip', '.gz', '.tgz', '.bz2', '.xz', '.7z',
  '.tar', '.jar', '.class', '.exe', '.dll', '.so', '.dylib', '.o', '.a', '.wasm', '.mp3', '.mp4', '.mov', '.wav', '.ogg',
  '.woff', '.woff2', '.ttf', '.otf', '.sqlite', '.db', '.bin',
])

// The schema asks for offset ≥ 0 and limit ≥ 1 (the `meta` minimums), but a call below them reads
// from the start and the default length, as Claude Code's does, rather than cost a round.
export const readInput = builtinInput('Read', () => z.object({
  file_path: z.string().describe('The absolute path of the file to read'),
  offset: z.number().int().optional().meta({ minimum: 0 }).describe('The line number to start from (1-based). Only for files too long to read at once'),
  limit: z.number().int().optional().meta({ minimum: 1 }).describe(`How many lines to read (default ${DEFAULT_LINES})`),
  pages: z.string().optional().describe(`PDF only: the pages to read, one ("4") or a range ("2-7"), at most ${MAX_PAGES_PER_READ} in one call`),
  allow_large: z.boolean().optional().describe('Read past the size limits, as far as the context has room. Only when all of a large file is needed'),
}))
export type ReadInput = z.output<ReturnType<typeof readInput>>

export const READ_DESCRIPTION = `Reads a file on this machine.
- file_path is absolute, inside the session's working directories.
- By default up to ${DEFAULT_LINES} lines are returned from the start of the file; pass offset (1-based line) and limit for longer files.
- Lines longer than ${MAX_LINE_CHARS} characters are cut.
- Output is numbered like \`cat -n\`: the line number, a tab, then the line. The number is not part of the file.
- Reads images (PNG, JPEG, GIF, WebP) and presents them visually. Reads PDFs; for PDFs over 10 pages pass pages (e.g. "1-5", at most ${MAX_PAGES_PER_READ} pages per call). Reads Jupyter notebooks (.ipynb) as all their cells with outputs.
- Directories cannot be read: list them with Glob or with ls through Bash.
- A file must be read before Edit or Write may change it.
- Reading several files that may be useful at once, in one response, is faster.`

export interface ReadOptions {
  additionalDirectories: readonly string[]
  /**
   * The permissions mod decided whether this path may be read (confinementLifted): the working
   * directories no longer fence it. FIFOs, devices and oversize files are still refused.
   */
  anywhere?: boolean
  /**
   * The output cap: a whole-file read stops at a line boundary before this many characters (a
   * PARTIAL view), an explicit range past it is refused.
   */
  maxOutputChars: number
  /** The tokens the context window has room for this turn: the cap `allow_large` reads up to. */
  room?: () => number
}

const reminder = (text: string) => `<system-reminder>${text}</system-reminder>`

export async function readTool(input: ReadInput, ctx: ToolContext, options: ReadOptions): Promise<ToolOutput> {
  const checked = await checkPath(input.file_path, ctx.cwd, options.additionalDirectories, { anywhere: options.anywhere })
  if (!checked.ok) return failure(checked.message)
  const shown = input.file_path
  const ext = extname(checked.path).toLowerCase()
  const cap = ext === '.ipynb' ? MAX_NOTEBOOK_BYTES : ext === '.pdf' ? MAX_PDF_BYTES : MAX_FILE_BYTES
  const file = await readRegular(checked.path, cap)
  if (!file.ok) {
    switch (file.why) {
      case 'missing': return failure(`File does not exist: ${shown}.${await similarNames(checked.path)}`)
      case 'directory': return failure(`${shown} is a directory, not a file. List it with Glob, or with ls through Bash.`)
      case 'irregular': return failure(`${shown} is not a regular file.`)
      case 'too-large': {
        const size = `${shown} is ${file.size === undefined ? '' : `${file.size} bytes, `}more than Read takes (${cap} bytes).`
        if (IMAGE_EXTENSIONS.has(ext)) return failure(`${size} Make a smaller copy (for example with ImageMagick through Bash: convert in${ext} -resize 2000x2000 out.png) and read that.`)
        return failure(`${size} Search it with Grep, or look at parts of it with head/tail/sed through Bash.`)
      }
      default: return failure(`Cannot read ${shown}: ${file.message}`)
    }
  }
  const { bytes, mtimeMs } = file
  // Images and PDFs are told by their bytes too: a screenshot saved without its extension is still one.
  const binary = looksBinary(bytes)
  if (ext === '.pdf' || (binary && bytes.subarray(0, 5).toString('latin1') === '%PDF-')) return readPdf(bytes, shown, input.pages)
  if (IMAGE_EXTENSIONS.has(ext) || (binary && imageHeader(bytes))) return readImage(bytes, shown)
  if (ext === '.ipynb') {
    const nb = renderNotebook(decodeText(bytes).text, shown)
    if (!nb.ok) return failure(nb.message)
    const chars = nb.content.reduce((n, b) => n + (b.type === 'text' ? b.text.length : 0), 0)
    if (chars > options.maxOutputChars) {
      return failure(`${shown} has ${nb.cells.length} cells whose text and outputs come to ${chars} characters, more than Read returns (${options.maxOutputChars}). Look at parts of it through Bash, e.g. jq '.cells[0:10]' ${shown}.`)
    }
    // The model saw every cell: Edit and Write may change the file.
    recordRead(ctx.sessionId, checked.path, { mtimeMs, hash: hashBytes(bytes), whole: true })
    const text = nb.content.map((b) => (b.type === 'text' ? b.text : `[${b.type}]`)).join('\n')
    return { result: { type: 'notebook', file: { filePath: shown, cells: nb.cells } }, text, content: nb.content }
  }
  if (BINARY_EXTENSIONS.has(ext) || binary) {
    return failure(`${shown} is a binary file (${bytes.length} bytes); Read shows text files, images, PDFs and notebooks only.`)
  }
  const large = input.allow_large === true
  const { text } = decodeText(bytes)
  const ranged = input.offset !== undefined || input.limit !== undefined
  const start = input.offset !== undefined && input.offset > 0 ? input.offset - 1 : 0
  // allow_large reads the whole file, not a first page, as Claude Code does.
  const limit = input.limit !== undefined && input.limit > 0 ? input.limit : large && !ranged ? Infinity : DEFAULT_LINES
  const roomChars = large ? Math.max((options.room?.() ?? 0) * CHARS_PER_TOKEN, options.maxOutputChars) : 0
  // A whole file too large for the room is paged at the usual cap, as if allow_large were not given.
  const budget = large && (ranged || text.length <= roomChars) ? roomChars : options.maxOutputChars
  const view = lineWindow(text, { start, limit, maxLineChars: MAX_LINE_CHARS, cutNote: CUT_NOTE, budget })
  if (ranged && view.chars > budget) return failure(tooManyTokens(tokensOf(view.chars), tokensOf(budget), large))
  const result = (content: string, numLines: number) => ({ type: 'text', file: { filePath: shown, content, numLines, startLine: start + 1, totalLines: view.total } })

  if (view.total === 0) {
    recordRead(ctx.sessionId, checked.path, { mtimeMs, hash: hashBytes(bytes), whole: true })
    return { result: result('', 0), text: reminder(`The file ${shown} exists but is empty.`) }
  }
  if (view.shown === 0) {
    return {
      result: result('', 0),
      text: reminder(`The file ${shown} has ${view.total} line${view.total === 1 ? '' : 's'}, fewer than the offset ${input.offset}. Read from an earlier line.`),
    }
  }
  const end = start + view.shown
  recordRead(ctx.sessionId, checked.path, { mtimeMs, hash: hashBytes(bytes), whole: start === 0 && end >= view.total })
  let body = view.numbered
  if (view.shown < Math.min(limit, view.total - start)) {
    const askedEnd = Math.min(start + limit, view.total)
    body += `\n\n${partialView({ path: shown, start: start + 1, end, total: view.total, askedEnd, tokens: tokensOf(view.chars), cap: tokensOf(budget), large })}`
  } else if (end < view.total) {
    body += `\n\n${reminder(`Showing lines ${start + 1}-${end} of ${view.total}. Read on with offset ${end + 1}.`)}`
  }
  return { result: result(view.content, view.shown), text: body }
}

/** "Did you mean" for a missing file: siblings with the same name but another extension. */
async function similarNames(path: string): Promise<string> {
  const stem = basename(path, extname(path))
  const entries = await readdir(dirname(path)).catch(() => [] as string[])
  const close = entries.filter((e) => e !== basename(path) && basename(e, extname(e)) === stem).slice(0, 3)
  return close.length ? ` Did you mean ${close.map((e) => join(dirname(path), e)).join(' or ')}?` : ''
}
