import type { Session } from '../core/loop/session.js'

/** What `Query.interrupt` answers (the Agent SDK's interrupt receipt): the uuids of the user messages still waiting, or dropped. */
export interface InterruptReceipt {
  still_queued: string[]
  cancelled?: string[]
}

/** Aborts the running turn (if any); with `cancel_queued`, the user messages waiting behind it are dropped too. */
export function interruptTurn(session: Session, options: { cancel_queued?: boolean } = {}): InterruptReceipt {
  session.turnAbort?.abort(new Error('interrupted'))
  if (options.cancel_queued === true) return { still_queued: [], cancelled: session.input?.cancel() ?? [] }
  return { still_queued: session.input?.waiting() ?? [] }
}
