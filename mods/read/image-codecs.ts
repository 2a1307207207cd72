import { decode, encode } from 'jpeg-js'
import { PNG } from 'pngjs'
import type { Pixels } from './image-shrink.js'

// Pure-JavaScript coders (no native binary, nothing fetched at install): loaded only by
// image-shrink.ts, on the first image that needs shrinking.

export function decodePng(bytes: Buffer): Pixels {
  const { width, height, data } = PNG.sync.read(bytes)
  return { width, height, data }
}

export function decodeJpeg(bytes: Buffer, maxPixels: number): Pixels {
  const { width, height, data } = decode(bytes, { useTArray: true, formatAsRGBA: true, maxResolutionInMP: maxPixels / 1e6, maxMemoryUsageInMB: 1024 })
  return { width, height, data }
}

export function encodePng(p: Pixels): Buffer {
  const png = new PNG({ width: p.width, height: p.height })
  png.data = Buffer.from(p.data.buffer, p.data.byteOffset, p.data.byteLength)
  return PNG.sync.write(png, { deflateLevel: 6 })
}

export function encodeJpeg(p: Pixels, quality: number): Buffer {
  return Buffer.from(encode({ width: p.width, height: p.height, data: p.data }, quality).data)
}
