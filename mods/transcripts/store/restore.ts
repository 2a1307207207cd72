import type { StoredSession } from '../../../core/session/store.js'
import { rebuildHistory } from './rebuild.js'
import { bridgedLinks, chainTo, type ReadTranscript } from './transcript-read.js'

/** A read transcript rebuilt for the loop to go on from (up to the message `at` when given): what a store's `load` answers. */
export function restoreSession(sessionId: string, location: string, read: ReadTranscript, at?: string): StoredSession {
  const warnings = [...read.warnings]
  const chain = chainTo(read.entries, at)
  const rebuilt = rebuildHistory(chain)
  const bridged = bridgedLinks(chain)
  if (bridged > 0) {
    warnings.push(`${location}: ${bridged} line${bridged === 1 ? '' : 's'} named a parent line that is not in the file (damaged and skipped); linked to the line written before instead`)
  }
  if (rebuilt.mended) {
    warnings.push(`${location}: ${rebuilt.mended} part${rebuilt.mended === 1 ? '' : 's'} of the conversation left without their counterpart by a skipped line were mended (tool results without their call dropped, a lost opening prompt noted)`)
  }
  if (rebuilt.repaired > 0) {
    warnings.push(`${location}: ${rebuilt.repaired} tool call${rebuilt.repaired === 1 ? '' : 's'} had no result (the session stopped while ${rebuilt.repaired === 1 ? 'it' : 'they'} ran); answered with an error`)
  }
  return { sessionId, location, leafUuid: chain.at(-1)?.uuid ?? null, rebuilt, warnings }
}
