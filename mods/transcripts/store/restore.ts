import type { StoredSession } from '../../../core/session/store.js'
import { rebuildHistory } from './rebuild.js'
import { chainTo, type ReadTranscript } from './transcript-read.js'

/** A read transcript rebuilt for the loop to go on from (up to the message `at` when given): what a store's `load` answers. */
export function restoreSession(sessionId: string, location: string, read: ReadTranscript, at?: string): StoredSession {
  const warnings = [...read.warnings]
  const chain = chainTo(read.entries, at)
  const rebuilt = rebuildHistory(chain)
  if (rebuilt.repaired > 0) {
    warnings.push(`${location}: ${rebuilt.repaired} tool call${rebuilt.repaired === 1 ? '' : 's'} had no result (the session stopped while ${rebuilt.repaired === 1 ? 'it' : 'they'} ran); answered with an error`)
  }
  return { sessionId, location, leafUuid: chain.at(-1)?.uuid ?? null, rebuilt, warnings }
}
