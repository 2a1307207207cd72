import type { MessageParam } from '@anthropic-ai/sdk/resources/messages'
import type { ModelRequestInput } from '../events/types.js'
import type { ModelRequest } from '../model/types.js'
import { outputLimit } from './output-limit.js'
import { composeSystemPrompt } from './prompt.js'
import type { Session } from './session.js'
import { thinkingFor } from './signed-by.js'

/**
 * The request as it is sent, after `model.request`: what it is for follows from the session
 * (a subagent's loop, or the main one) unless the caller says (`complete`, `fork`). Nothing
 * listening, nothing to do.
 */
export async function requestFor(
  session: Session, request: ModelRequest, sections: ModelRequestInput['sections'], turnId?: string, purpose?: 'complete' | 'fork',
): Promise<ModelRequest> {
  const { bus } = session.host
  if (!bus.has('model.request')) return request
  const agentId = session.agent?.agentId
  const e: ModelRequestInput = {
    purpose: purpose ?? (agentId ? 'subagent' : 'turn'), request, sections,
    ...(turnId ? { turnId } : {}), ...(agentId ? { agentId } : {}),
  }
  return (await bus.emit('model.request', e)).request
}

/**
 * A request of the loop's own shape around `messages`: the session's tools and system prompt as
 * a round sends them, so a fork of the conversation shares the rounds' cached prefix. The thinking
 * other models wrote is left out: `model` would refuse its signatures.
 */
export async function loopRequest(session: Session, model: string, messages: MessageParam[], turnId?: string, purpose?: 'fork'): Promise<ModelRequest> {
  const tools = await session.toolDefinitions()
  const system = await composeSystemPrompt(session, model, tools.map((t) => t.name), session.agent?.agentId)
  return requestFor(session, {
    model,
    max_tokens: outputLimit(session, model),
    ...(system.blocks.length > 0 ? { system: system.blocks } : {}),
    messages: thinkingFor(messages, model),
    tools,
    ...(session.options.betas?.length ? { betas: [...session.options.betas] } : {}),
  }, system.sections, turnId, purpose)
}
