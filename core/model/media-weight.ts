/**
 * What the API counts for one image, in tokens, at most: width x height / 750, after it scales an
 * image down to about 1.15 megapixels.
 */
export const IMAGE_TOKENS = 1_600
/** What a PDF costs at most as Read sends one (20 pages, each its text and an image of it). */
export const DOCUMENT_TOKENS = 60_000

/**
 * The length of a value as JSON, with each base64 image or PDF in it weighed at the characters
 * (four a token) of what the API counts for it rather than of its base64: a 1 MB screenshot is
 * ~1,600 tokens to the model, not the ~350,000 its text would suggest, and measuring it as text
 * would compact a conversation the moment it read one. A value without base64 data measures as
 * JSON.stringify does.
 */
export function weighedJsonLength(value: unknown): number {
  const json = JSON.stringify(value)
  if (json === undefined) return 0
  if (!json.includes('"base64"')) return json.length
  let weight = 0
  const light = JSON.stringify(value, (key, v: { type?: unknown; media_type?: unknown; data?: unknown } | null) => {
    if (key !== 'source' || typeof v !== 'object' || v === null || v.type !== 'base64' || typeof v.data !== 'string') return v
    weight += Math.min(v.data.length, 4 * (v.media_type === 'application/pdf' ? DOCUMENT_TOKENS : IMAGE_TOKENS))
    return { ...v, data: '' }
  })
  return light.length + weight
}
