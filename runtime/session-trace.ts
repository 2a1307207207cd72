import type { Session } from '../core/loop/session.js'
import { isKept } from './session-store.js'
import { ProvenanceLog } from './trace-log.js'

/**
 * Turns provenance on for a session: records go to its log until it closes, and to the trace file
 * its store keeps beside the session (when it keeps one and the session is kept at all).
 */
export function startProvenance(session: Session): void {
  const { host } = session
  const store = session.options.builtins?.sessionStore
  const log = new ProvenanceLog(() => (session.release && session.location && isKept(session) ? store?.traceOf?.(session.location) : undefined))
  session.provenance = log
  session.stopProvenance = host.bus.onProvenance((r) => log.add(r))
}

export function stopProvenance(session: Session): void {
  session.stopProvenance?.()
  session.stopProvenance = undefined
  session.provenance?.close()
}
