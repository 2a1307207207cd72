import type { Session } from '../loop/session.js'
import { ProvenanceLog, traceFileOf } from './log.js'

const stops = new WeakMap<Session, () => void>()

// The transcripts mod publishes where it writes; the trace goes beside it, or stays in memory.
const TRANSCRIPT_REF = { plugin: 'transcripts', key: 'path' } as const

/** Turns provenance on for a session: records go to its log (and trace file) until it closes. */
export function startProvenance(session: Session): void {
  const { host } = session
  const log = new ProvenanceLog(() => {
    const path = host.state.get(TRANSCRIPT_REF).value
    // Only this session's transcript: a host shared by several sessions keeps the last one's path.
    return typeof path === 'string' && path.endsWith(`${session.id}.jsonl`) ? traceFileOf(path) : undefined
  })
  session.provenance = log
  stops.set(session, host.bus.onProvenance((r) => log.add(r)))
}

export function stopProvenance(session: Session): void {
  stops.get(session)?.()
  stops.delete(session)
}
