import { attach } from './attach.js'
import type { Session } from './session.js'
import { joinHistory } from './unshown.js'

/**
 * Before a request of the main conversation: what was held for it joins the history, once — the
 * context model.switch handlers returned, the environment update of a move ($.session.move), and
 * user rows mods appended ($.session.append). Held until then because context added while the
 * model's tool calls wait for their results would part them from their calls.
 */
export async function deliverHeld(session: Session): Promise<void> {
  const root = session.root
  if (session.agent) return
  if (root.switchContext.length > 0) await joinAttached(session, 'model_switch_context', root.switchContext.splice(0), { kind: 'plugin', event: 'model.switch' })
  if (root.envUpdates.length > 0) await joinAttached(session, 'environment_update', root.envUpdates.splice(0), { kind: 'engine' })
  if (root.appended.length > 0) await joinHistory(session, root.appended.splice(0))
}

async function joinAttached(session: Session, type: string, texts: string[], origin: Parameters<typeof attach>[3]): Promise<void> {
  const blocks = await attach(session, type, texts, origin)
  if (blocks.length > 0) await joinHistory(session, blocks)
}
