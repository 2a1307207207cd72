import type { Session } from '../loop/session.js'
import { ProvenanceLog, traceFileOf } from './log.js'

const stops = new WeakMap<Session, () => void>()

declare module '../mod/capabilities.js' {
  interface Capabilities {
    /** Where the session's transcript is written, by the mod that writes it; the trace goes beside it, or stays in memory. */
    transcriptFile: (sessionId: string) => string | undefined
  }
}

/** Turns provenance on for a session: records go to its log (and trace file) until it closes. */
export function startProvenance(session: Session): void {
  const { host } = session
  const log = new ProvenanceLog(() => {
    const path = host.capabilities.get('transcriptFile')?.(session.id)
    return path === undefined ? undefined : traceFileOf(path)
  })
  session.provenance = log
  stops.set(session, host.bus.onProvenance((r) => log.add(r)))
}

export function stopProvenance(session: Session): void {
  stops.get(session)?.()
  stops.delete(session)
}
