import { ModloopError } from '../core/errors.js'
import { raiseSessionEnd } from './close.js'
import { surfaceFields } from '../core/loop/session-options.js'
import { hold, locationOf } from './session-store.js'
import type { Session } from '../core/loop/session.js'
import { uuid } from '../core/loop/messages.js'

/**
 * `/clear` (served through `$.session.clear`): the conversation ends (session.end, reason
 * `clear`) and a new one starts in the same process under a new id, with no history
 * (session.start, source `clear`), so every mod sets itself up again as for a new session.
 * The new conversation's cost, tokens and API time start from zero (`total_cost_usd`, /cost), and
 * maxBudgetUsd counts its spend afresh, as Claude Code's /clear resets them.
 */
export async function clearSession(session: Session): Promise<{ sessionId: string; previousSessionId: string }> {
  if (session.agent) throw new ModloopError('MODLOOP_ERR_USAGE', 'a subagent cannot clear the conversation')
  const previousSessionId = session.id
  await raiseSessionEnd(session, 'clear')
  session.release?.()
  session.release = undefined
  session.renew()
  const transcriptPath = locationOf(session)
  await hold(session, transcriptPath)
  // The caller's stream learns of it before anything of the new conversation, as Claude Code tells it.
  session.post({ type: 'conversation_reset', new_conversation_id: session.id, trigger: 'clear', timestamp: new Date().toISOString(), session_id: previousSessionId, uuid: uuid() })
  // The new conversation's mods read the settings files afresh, each file once among them.
  const start = () => session.host.bus.emit('session.start', {
    cwd: session.cwd, ...surfaceFields(session.options), waitsForInput: session.waitsForInput, sessionId: session.id, source: 'clear', transcriptPath,
  })
  const files = session.host.capabilities.get('settingsFiles')
  await (files ? files.during(start) : start())
  return { sessionId: session.id, previousSessionId }
}
