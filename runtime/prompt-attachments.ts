import type { ContentBlockParam } from '@anthropic-ai/sdk/resources/messages'
import { ModloopError } from '../core/errors.js'

// What the Messages API takes in a user message; anything else it refuses, after the caller moved on.
const MEDIA_TYPES = {
  image: ['image/jpeg', 'image/png', 'image/gif', 'image/webp'],
  document: ['application/pdf', 'text/plain'],
} as const
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/

/**
 * A mod's attachments as the content blocks that follow its prompt's text (spec mods §4
 * `$.prompt.submit`), checked here where the mod is known: a bad one is refused naming the field.
 * Audio is refused: the model takes none.
 */
export function attachmentBlocks(mod: string, given: unknown): ContentBlockParam[] {
  if (given === undefined) return []
  const refuse = (field: string, why: string): never => {
    throw new ModloopError('MODLOOP_ERR_USAGE', `${mod}: $.prompt.submit's ${field} ${why}`, { mod, field })
  }
  if (!Array.isArray(given)) refuse('attachments', 'must be an array of { type, mediaType, base64, filename? }')
  return (given as unknown[]).map((a, i): ContentBlockParam => {
    const at = `attachments[${i}]`
    if (typeof a !== 'object' || a === null) return refuse(at, 'must be an object { type, mediaType, base64, filename? }')
    const { type, mediaType, base64, filename } = a as Record<string, unknown>
    if (type === 'audio') refuse(`${at}.type`, 'is audio, which the model cannot take: attach an image or a document')
    if (type !== 'image' && type !== 'document') refuse(`${at}.type`, `must be image or document, got ${String(type)}`)
    const kinds: readonly string[] = MEDIA_TYPES[type as 'image' | 'document']
    if (typeof mediaType !== 'string' || !kinds.includes(mediaType)) refuse(`${at}.mediaType`, `must be one of ${kinds.join(', ')} for ${String(type)}, got ${String(mediaType)}`)
    if (typeof base64 !== 'string' || !BASE64.test(base64)) refuse(`${at}.base64`, 'must be the bytes in base64, not empty')
    if (filename !== undefined && (typeof filename !== 'string' || filename === '')) refuse(`${at}.filename`, 'must be a name that is not empty')
    const data = base64 as string
    if (type === 'image') return { type: 'image', source: { type: 'base64', media_type: mediaType as 'image/png', data } }
    const title = filename === undefined ? {} : { title: filename as string }
    return mediaType === 'text/plain'
      ? { type: 'document', source: { type: 'text', media_type: 'text/plain', data: Buffer.from(data, 'base64').toString('utf8') }, ...title }
      : { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data }, ...title }
  })
}
