/** The four image types the Messages API reads. */
export type ImageType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp'

export interface ImageHeader {
  type: ImageType
  /** Undefined when the header does not say (a truncated or unusual file). */
  width?: number
  height?: number
}

const ascii = (b: Uint8Array, from: number, to: number) => String.fromCharCode(...b.subarray(from, to))

/**
 * An image's type from its first bytes (a screenshot saved as .jpg is still a PNG, and the API
 * refuses a media_type that does not match the data), and its size in pixels from its header,
 * read without decoding it. Undefined when the bytes are none of the four types.
 */
export function imageHeader(b: Uint8Array): ImageHeader | undefined {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength)
  if (b.length >= 8 && b[0] === 0x89 && ascii(b, 1, 4) === 'PNG') {
    // The IHDR chunk comes first: width and height at bytes 16 and 20.
    return b.length >= 24 ? { type: 'image/png', width: view.getUint32(16), height: view.getUint32(20) } : { type: 'image/png' }
  }
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return { type: 'image/jpeg', ...jpegSize(b, view) }
  if (b.length >= 6 && (ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a')) {
    return b.length >= 10 ? { type: 'image/gif', width: view.getUint16(6, true), height: view.getUint16(8, true) } : { type: 'image/gif' }
  }
  if (b.length >= 12 && ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP') return { type: 'image/webp', ...webpSize(b, view) }
  return undefined
}

/** A JPEG's size is in its start-of-frame segment, after any number of others (EXIF, tables). */
function jpegSize(b: Uint8Array, view: DataView): { width?: number; height?: number } {
  let at = 2
  while (at + 9 < b.length) {
    if (b[at] !== 0xff) return {}
    const marker = b[at + 1]!
    // Fill bytes, and markers that have no length.
    if (marker === 0xff) { at++; continue }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) { at += 2; continue }
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc
    if (isFrame) return { height: view.getUint16(at + 5), width: view.getUint16(at + 7) }
    at += 2 + view.getUint16(at + 2)
  }
  return {}
}

function webpSize(b: Uint8Array, view: DataView): { width?: number; height?: number } {
  if (b.length < 30) return {}
  const chunk = ascii(b, 12, 16)
  if (chunk === 'VP8 ') return { width: view.getUint16(26, true) & 0x3fff, height: view.getUint16(28, true) & 0x3fff }
  if (chunk === 'VP8L') {
    const bits = view.getUint32(21, true)
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 }
  }
  if (chunk === 'VP8X') {
    const u24 = (at: number) => b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16)
    return { width: u24(24) + 1, height: u24(27) + 1 }
  }
  return {}
}
