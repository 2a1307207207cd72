import type { ModelRequestInput } from '../events/types.js'
import type { ModelRequest } from '../model/types.js'
import type { Session } from './session.js'

/**
 * The request as it is sent, after `model.request`: what it is for follows from the session
 * (a subagent's loop, or the main one) unless the caller says (`complete`). Nothing listening,
 * nothing to do.
 */
export async function requestFor(
  session: Session, request: ModelRequest, sections: ModelRequestInput['sections'], turnId?: string, purpose?: 'complete',
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
