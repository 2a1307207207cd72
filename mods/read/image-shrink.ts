import type { ImageType } from './image-header.js'

/** Pixels as RGBA bytes, four a pixel, row after row. */
export interface Pixels { width: number; height: number; data: Uint8Array }

export interface Shrunk { bytes: Buffer; type: 'image/png' | 'image/jpeg'; width: number; height: number }

// Past this many pixels an image is not decoded (a 64-megapixel one takes ~256 MB as RGBA): the
// largest screens' screenshots (8K, 33 MP) fit under it.
export const MAX_DECODE_PIXELS = 40_000_000
// Lower qualities are tried only while the JPEG is still over the byte limit.
const JPEG_QUALITIES = [80, 60, 40, 20]

type Codecs = typeof import('./image-codecs.js')
let codecs: Promise<Codecs> | undefined
// The PNG and JPEG coders load on the first image that needs them, never at start.
const loadCodecs = () => (codecs ??= import('./image-codecs.js'))

/**
 * The image decoded, scaled to fit `maxSide` on its long side, and encoded again: as PNG when the
 * original was one and the result stays within `pngBytes`, else as JPEG (transparent areas on
 * white) at the best quality that fits `maxBytes`. Only PNG and JPEG are decoded (pure-JavaScript
 * coders): undefined for GIF and WebP, and for an image too large to decode.
 */
export async function shrinkImage(bytes: Buffer, type: ImageType, size: { width: number; height: number }, limits: { maxSide: number; pngBytes: number; maxBytes: number }): Promise<Shrunk | undefined> {
  if (type !== 'image/png' && type !== 'image/jpeg') return undefined
  if (size.width * size.height > MAX_DECODE_PIXELS) return undefined
  const { decodePng, decodeJpeg, encodePng, encodeJpeg } = await loadCodecs()
  const source = type === 'image/png' ? decodePng(bytes) : decodeJpeg(bytes, MAX_DECODE_PIXELS)
  const scale = Math.min(1, limits.maxSide / Math.max(source.width, source.height))
  const width = Math.max(1, Math.round(source.width * scale))
  const height = Math.max(1, Math.round(source.height * scale))
  const pixels = scale < 1 ? resize(source, width, height) : source
  // A PNG is encoded again only when, shrunk, it may come under the limit (its bytes fall with its area).
  if (type === 'image/png' && bytes.length * (width * height) / (source.width * source.height) <= limits.pngBytes) {
    const png = encodePng(pixels)
    if (png.length <= limits.pngBytes) return { bytes: png, type: 'image/png', width, height }
  }
  const opaque = onWhite(pixels)
  let jpeg: Buffer | undefined
  for (const quality of JPEG_QUALITIES) {
    jpeg = encodeJpeg(opaque, quality)
    if (jpeg.length <= limits.maxBytes) break
  }
  return jpeg && jpeg.length <= limits.maxBytes ? { bytes: jpeg, type: 'image/jpeg', width, height } : undefined
}

/** Downscales by averaging the source area under each new pixel (a box filter): sharp text, no moire. */
export function resize(src: Pixels, width: number, height: number): Pixels {
  const out = new Uint8Array(width * height * 4)
  const sx = src.width / width
  const sy = src.height / height
  const acc = new Float64Array(4)
  for (let y = 0; y < height; y++) {
    const y0 = y * sy
    const y1 = Math.min(src.height, y0 + sy)
    for (let x = 0; x < width; x++) {
      const x0 = x * sx
      const x1 = Math.min(src.width, x0 + sx)
      acc.fill(0)
      let total = 0
      for (let yy = Math.floor(y0); yy < y1; yy++) {
        const fy = Math.min(yy + 1, y1) - Math.max(yy, y0)
        for (let xx = Math.floor(x0); xx < x1; xx++) {
          const f = fy * (Math.min(xx + 1, x1) - Math.max(xx, x0))
          const o = (yy * src.width + xx) * 4
          acc[0]! += src.data[o]! * f
          acc[1]! += src.data[o + 1]! * f
          acc[2]! += src.data[o + 2]! * f
          acc[3]! += src.data[o + 3]! * f
          total += f
        }
      }
      const o = (y * width + x) * 4
      for (let c = 0; c < 4; c++) out[o + c] = Math.round(acc[c]! / total)
    }
  }
  return { width, height, data: out }
}

/** JPEG has no transparency: a transparent pixel shows the white under it, not its (often black) colour. */
function onWhite(p: Pixels): Pixels {
  const data = new Uint8Array(p.data.length)
  for (let i = 0; i < data.length; i += 4) {
    const a = p.data[i + 3]! / 255
    for (let c = 0; c < 3; c++) data[i + c] = Math.round(p.data[i + c]! * a + 255 * (1 - a))
    data[i + 3] = 255
  }
  return { width: p.width, height: p.height, data }
}
