import { fileURLToPath } from 'node:url'
import type { ContentBlockParam, ImageBlockParam } from '@anthropic-ai/sdk/resources/messages'
import type { ContentBlock } from '@agentclientprotocol/sdk'
import { RequestError } from '@agentclientprotocol/sdk'

const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const
type ImageType = (typeof IMAGE_TYPES)[number]

/**
 * An ACP prompt as the content of one user message. Text stays text; an image goes to the model as
 * an image; a link to a file becomes an `@path` mention (the mentions mod reads it, as when typed);
 * an embedded resource — the editor's selection or an open buffer — is quoted as context with its
 * URI. Audio is not advertised, so it is refused with invalid params rather than dropped.
 */
export function promptContent(blocks: readonly ContentBlock[]): ContentBlockParam[] {
  return blocks.map((b, i): ContentBlockParam => {
    switch (b.type) {
      case 'text': return { type: 'text', text: b.text }
      case 'image': return image(b.mimeType, b.data, i)
      case 'resource_link': return { type: 'text', text: mention(b.uri, b.name, i) }
      case 'resource': {
        const r = b.resource
        if ('text' in r) return { type: 'text', text: `<context ref="${r.uri}">\n${r.text}\n</context>` }
        if (r.mimeType && (IMAGE_TYPES as readonly string[]).includes(r.mimeType)) return image(r.mimeType, r.blob, i)
        throw RequestError.invalidParams({ index: i }, `prompt[${i}]: the embedded resource ${r.uri} is binary (${r.mimeType ?? 'no mime type'}); only text and images can be sent`)
      }
      default: throw RequestError.invalidParams({ index: i }, `prompt[${i}]: content of type "${b.type}" is not supported (see the prompt capabilities)`)
    }
  })
}

function image(mimeType: string, data: string, i: number): ImageBlockParam {
  if (!(IMAGE_TYPES as readonly string[]).includes(mimeType)) {
    throw RequestError.invalidParams({ index: i }, `prompt[${i}]: image type "${mimeType}" is not one of ${IMAGE_TYPES.join(', ')}`)
  }
  return { type: 'image', source: { type: 'base64', media_type: mimeType as ImageType, data } }
}

/** A file URI as the mention the prompt would hold had it been typed; any other link as a markdown link. */
function mention(uri: string, name: string, i: number): string {
  if (!uri.startsWith('file://')) return `[${name}](${uri})`
  let path: string
  try {
    path = fileURLToPath(uri)
  } catch (err) {
    // A file URI with a host, or with an encoded "/", names no local file: the editor sent bad params.
    throw RequestError.invalidParams({ index: i, uri }, `prompt[${i}]: ${uri} is not a local file URI: ${(err as Error).message}`)
  }
  return /\s/.test(path) ? `@"${path}"` : `@${path}`
}
