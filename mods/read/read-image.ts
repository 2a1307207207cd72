import type { ToolOutput } from '../../core/tools/tool.js'
import { failure } from '../_shared/register-tool.js'
import { describeError } from '../../core/errors.js'
import { imageHeader, type ImageHeader } from './image-header.js'
import { shrinkImage, type Shrunk } from './image-shrink.js'

/** The long side Read sends at most, as Claude Code does; the API scales larger ones down itself anyway. */
export const MAX_SIDE = 2000
/** The API refuses an image with a side longer than this. */
export const API_MAX_SIDE = 8000
/** The API refuses an image whose base64 is longer than 5 MB: 3.75 MB of bytes. */
export const API_MAX_BASE64 = 5 * 1024 * 1024
export const API_MAX_BYTES = API_MAX_BASE64 * 3 / 4
/** An image over this is sent again as JPEG (a PNG shrunk under it stays PNG), as Claude Code does. */
export const REENCODE_OVER_BYTES = 500 * 1024

const NAMES: Record<ImageHeader['type'], string> = { 'image/png': 'PNG', 'image/jpeg': 'JPEG', 'image/gif': 'GIF', 'image/webp': 'WebP' }

export const kb = (n: number) => (n < 1024 * 1024 ? `${(n / 1024).toFixed(1)}KB` : `${(n / 1024 / 1024).toFixed(1)}MB`)

/**
 * An image as the model sees it: one image block, of the type its bytes say. One larger than
 * 2000 px on a side is scaled down, and one over 500 KB re-encoded (JPEG unless a shrunk PNG
 * stays small); what cannot be shrunk here (GIF, WebP, a damaged file) is sent as it is while the
 * API takes it, and refused, saying its size and the limit, when the API would not.
 */
export async function readImage(bytes: Buffer, shown: string): Promise<ToolOutput> {
  const header = imageHeader(bytes)
  if (!header || !header.width || !header.height) {
    return failure(`${shown} is not a readable image: its bytes are not a PNG, JPEG, GIF or WebP whose size can be read.`)
  }
  const size = { width: header.width, height: header.height }
  const fits = size.width <= MAX_SIDE && size.height <= MAX_SIDE
  if (fits && bytes.length <= REENCODE_OVER_BYTES) return imageOutput(shown, bytes.length, size, { bytes, type: header.type, ...size })

  let shrunk: Shrunk | undefined
  let why = `Read shrinks only PNG and JPEG images (up to ${MAX_SIDE} px a side), and this is a ${NAMES[header.type]}`
  try {
    shrunk = await shrinkImage(bytes, header.type, size, { maxSide: MAX_SIDE, pngBytes: REENCODE_OVER_BYTES, maxBytes: API_MAX_BYTES })
    if (!shrunk && (header.type === 'image/png' || header.type === 'image/jpeg')) why = 'it is too large to decode here'
  } catch (err) {
    why = `it could not be decoded (${describeError(err)})`
  }
  if (shrunk) return imageOutput(shown, bytes.length, size, shrunk)
  const apiTakes = size.width <= API_MAX_SIDE && size.height <= API_MAX_SIDE && bytes.length <= API_MAX_BYTES
  if (apiTakes) return imageOutput(shown, bytes.length, size, { bytes, type: header.type, ...size })
  return failure(
    `${shown} is a ${size.width}x${size.height} ${NAMES[header.type]} of ${kb(bytes.length)}: more than the API takes `
    + `(at most ${API_MAX_SIDE} px a side and ${kb(API_MAX_BYTES)}, ${kb(API_MAX_BASE64)} as base64), and ${why}. `
    + `Make a smaller copy (for example with ImageMagick through Bash: convert in.${header.type.slice(6)} -resize ${MAX_SIDE}x${MAX_SIDE} out.png) and read that.`,
  )
}

interface Sent { bytes: Buffer; type: ImageHeader['type']; width: number; height: number }

function imageOutput(shown: string, originalSize: number, original: { width: number; height: number }, sent: Sent): ToolOutput {
  const base64 = sent.bytes.toString('base64')
  const dimensions = { originalWidth: original.width, originalHeight: original.height, displayWidth: sent.width, displayHeight: sent.height }
  const changed = sent.bytes.length !== originalSize ? `, sent as a ${sent.width}x${sent.height} ${NAMES[sent.type]} of ${kb(sent.bytes.length)}` : ''
  return {
    result: { type: 'image', file: { base64, type: sent.type, originalSize, dimensions } },
    // The plain form, for hooks and displays; the model gets the image itself.
    text: `[image ${shown}: ${original.width}x${original.height}, ${kb(originalSize)}${changed}]`,
    content: [{ type: 'image', source: { type: 'base64', media_type: sent.type, data: base64 } }],
  }
}
