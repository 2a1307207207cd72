import { isUtf8 } from 'node:buffer'
import { randomHex } from '../../core/random.js'
import { chmod, rename, rm, stat, writeFile } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'

/** How a text file is stored, so a change writes it back the same way. */
export interface TextFormat {
  /** `latin1`: bytes that are not valid UTF-8 are read one character a byte, so untouched text is written back byte for byte. */
  encoding: 'utf8' | 'utf16le' | 'latin1'
  bom: boolean
  lineEnding: '\n' | '\r\n'
}

export const DEFAULT_FORMAT: TextFormat = { encoding: 'utf8', bom: false, lineEnding: '\n' }

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf])
const UTF16LE_BOM = Buffer.from([0xff, 0xfe])
const SNIFF_BYTES = 8192

/** A NUL byte early in the file means binary (UTF-16 text is told apart by its BOM). */
export function looksBinary(bytes: Uint8Array): boolean {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return false
  const end = Math.min(bytes.length, SNIFF_BYTES)
  for (let i = 0; i < end; i++) if (bytes[i] === 0) return true
  return false
}

/** CRLF when most line breaks are CRLF; files without line breaks count as LF. */
export function lineEndingOf(text: string): '\n' | '\r\n' {
  let crlf = 0
  let lf = 0
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
    if (i > 0 && text.charCodeAt(i - 1) === 13) crlf++
    else lf++
  }
  return crlf > lf ? '\r\n' : '\n'
}

export function decodeText(bytes: Buffer): { text: string; format: TextFormat } {
  let text: string
  let format: Omit<TextFormat, 'lineEnding'>
  if (bytes.subarray(0, 2).equals(UTF16LE_BOM)) {
    text = bytes.subarray(2).toString('utf16le')
    format = { encoding: 'utf16le', bom: true }
  } else if (bytes.subarray(0, 3).equals(UTF8_BOM)) {
    text = bytes.subarray(3).toString('utf8')
    format = { encoding: 'utf8', bom: true }
  } else if (isUtf8(bytes)) {
    text = bytes.toString('utf8')
    format = { encoding: 'utf8', bom: false }
  } else {
    // Decoding as UTF-8 would turn each stray byte into U+FFFD, and a write would store that.
    text = bytes.toString('latin1')
    format = { encoding: 'latin1', bom: false }
  }
  // The line ending takes a pass over the whole text: only writers ask for it.
  let lineEnding: TextFormat['lineEnding'] | undefined
  return {
    text,
    get format() {
      lineEnding ??= lineEndingOf(text)
      return { ...format, lineEnding }
    },
  }
}

/** True when `text` can be stored in `format` without loss (Latin-1 holds U+0000–U+00FF only). */
export function fitsEncoding(text: string, format: TextFormat): boolean {
  return format.encoding !== 'latin1' || !/[^\u0000-\u00ff]/.test(text)
}

/**
 * The bytes of `text` in `format`'s encoding and BOM (line endings are the caller's business).
 * Throws for a character the encoding cannot hold, rather than store another one in its place.
 */
export function encodeText(text: string, format: TextFormat): Buffer {
  if (!fitsEncoding(text, format)) {
    const bad = /[^\u0000-\u00ff]/.exec(text)![0]
    throw new Error(`the file is not UTF-8 (it is kept as Latin-1, one byte a character) and "${bad}" has no Latin-1 byte; write the text without it, or convert the file to UTF-8 first`)
  }
  const body = Buffer.from(text, format.encoding)
  if (!format.bom) return body
  return Buffer.concat([format.encoding === 'utf16le' ? UTF16LE_BOM : UTF8_BOM, body])
}

// A temp file refused beside an existing file (a directory the user may not write to), or a rename
// refused over it (a file of another user in a sticky directory, a file bind-mounted on its own):
// the file itself may still be writable, so it is written in place, as Claude Code does.
const IN_PLACE_AFTER = new Set(['EACCES', 'EPERM', 'EBUSY', 'EXDEV'])

/**
 * Replaces a file's content through a temp file in the same directory and a rename, so a reader
 * never sees half a file and a crash leaves the old one intact. Keeps an existing file's mode.
 * Where that is refused, an existing file is overwritten in place (not atomic, but not refused).
 */
export async function writeFileAtomic(path: string, data: Uint8Array): Promise<void> {
  const mode = await stat(path).then((s) => s.mode & 0o7777, () => undefined)
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomHex(4)}.tmp`)
  try {
    await writeFile(temp, data, { flag: 'wx' })
    if (mode !== undefined) await chmod(temp, mode)
    await rename(temp, path)
  } catch (err) {
    await rm(temp, { force: true })
    if (mode === undefined || !IN_PLACE_AFTER.has((err as NodeJS.ErrnoException).code ?? '')) throw err
    // Its own error names the file rather than the temp file, should this be refused too.
    await writeFile(path, data)
  }
}
