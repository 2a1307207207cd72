import type { ContentBlockParam } from '@anthropic-ai/sdk/resources/messages'
import type { PromptAttachmentInput } from '../events/types.js'
import type { Session } from './session.js'

export const reminder = (text: string) => `<system-reminder>\n${text}\n</system-reminder>`

/**
 * Text the runtime injects for the model (hook or mod context, mentioned files, recovery
 * nudges) passes through `prompt.attachment`, which may rewrite or drop it; what survives is
 * wrapped as a system reminder. Mods never see the wrapper.
 */
export async function attach(session: Session, type: string, texts: readonly string[], origin: PromptAttachmentInput['origin']): Promise<ContentBlockParam[]> {
  const { bus } = session.host
  const out: ContentBlockParam[] = []
  for (const text of texts) {
    const r = bus.has('prompt.attachment')
      ? await bus.emit('prompt.attachment', { type, text, origin, ...(session.agent ? { agentId: session.agent.agentId } : {}) })
      : { text }
    if (r.text !== null && r.text !== '') out.push({ type: 'text', text: reminder(r.text) })
  }
  return out
}
