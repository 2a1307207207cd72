import { existsSync } from 'node:fs'
import type { SessionStore, StoredSession } from '../../../core/session/store.js'
import { findSession, latestSession } from './locate.js'
import { acquireSessionLock, assertUnlocked } from './lock.js'
import { traceFileOf, transcriptPath } from './paths.js'
import { rebuildHistory } from './rebuild.js'
import { chainTo, readTranscript } from './transcript-read.js'

/**
 * The default session store: one append-only JSONL transcript per session under
 * `<MODLOOP_HOME>/projects/<encoded cwd>/` (paths.ts), written by the transcripts mod, read back
 * here for resume, continue and fork.
 */
export const fileStore: SessionStore = {
  locationOf: (cwd, sessionId, env) => transcriptPath(cwd, sessionId, env),
  exists: async (cwd, sessionId, env) => existsSync(transcriptPath(cwd, sessionId, env)),
  hold: (location, sessionId) => acquireSessionLock(location, sessionId),
  traceOf: (location) => traceFileOf(location),
  async load({ id, cwd, env, fork, at }): Promise<StoredSession> {
    const file = id !== undefined ? await findSession(id, cwd, env) : await latestSession(cwd, env)
    if (!fork) assertUnlocked(file.path, file.sessionId)
    const { entries, warnings } = await readTranscript(file.path)
    const chain = chainTo(entries, at)
    const rebuilt = rebuildHistory(chain)
    if (rebuilt.repaired > 0) {
      warnings.push(`${file.path}: ${rebuilt.repaired} tool call${rebuilt.repaired === 1 ? '' : 's'} had no result (the session stopped while ${rebuilt.repaired === 1 ? 'it' : 'they'} ran); answered with an error`)
    }
    return { sessionId: file.sessionId, location: file.path, leafUuid: chain.at(-1)?.uuid ?? null, rebuilt, warnings }
  },
}
