import { existsSync } from 'node:fs'
import type { SessionStore, StoredSession } from '../../../core/session/store.js'
import { findSession, latestSession } from './locate.js'
import { acquireSessionLock, assertUnlocked } from './lock.js'
import { traceFileOf, transcriptPath } from './paths.js'
import { restoreSession } from './restore.js'
import { readTranscript } from './transcript-read.js'

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
    return restoreSession(file.sessionId, file.path, await readTranscript(file.path), at)
  },
}
