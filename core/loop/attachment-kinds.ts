import type { ContentBlockParam } from '@anthropic-ai/sdk/resources/messages'
import type { PromptAttachmentKind } from '../events/types.js'

/** The kinds of what a prompt carries besides its text, as prompt.submit shows them: never the bytes. */
export function attachmentKinds(content: readonly ContentBlockParam[]): PromptAttachmentKind[] {
  const kinds: PromptAttachmentKind[] = []
  for (const b of content) {
    if (b.type === 'image') kinds.push({ type: 'image', ...('media_type' in b.source ? { mediaType: b.source.media_type } : {}) })
    else if (b.type === 'document') kinds.push({ type: 'document', ...('media_type' in b.source ? { mediaType: b.source.media_type } : {}), ...(b.title ? { filename: b.title } : {}) })
  }
  return kinds
}
