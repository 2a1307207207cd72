import { isModloopError, ModloopError } from '../core/errors.js'
import type { ResumedFrom } from '../core/events/types.js'
import type { QueryOptions } from './options.js'
import type { Rebuilt } from '../core/session/store.js'

// A session id is a UUID, as the SDK's are.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export interface ResumeState {
  source: 'resume' | 'fork'
  /** The id the session runs under: the resumed one, or a new one for a fork (undefined: pick one). */
  sessionId: string | undefined
  from: Omit<ResumedFrom, 'lastActivityMs' | 'carried'>
  rebuilt: Rebuilt
  /** Skipped lines and repairs, for the caller's log. */
  warnings: string[]
}

const usage = (message: string, field: string) => new ModloopError('MODLOOP_ERR_USAGE', message, { field })

/**
 * What `resume`, `continue`, `forkSession` and `resumeSessionAt` ask for, checked here and loaded
 * from the session store (refused while another process writes it, unless forking): the history
 * rebuilt and the totals to carry on. Undefined for a new session (and for `continue` in a
 * directory with no session yet).
 */
export async function loadResume(options: QueryOptions, cwd: string): Promise<ResumeState | undefined> {
  const store = options.builtins?.sessionStore
  const wantsResume = options.resume !== undefined || options.continue === true
  if (!wantsResume) {
    if (options.forkSession) throw usage('forkSession needs resume or continue: it copies an existing session', 'forkSession')
    if (options.resumeSessionAt !== undefined) throw usage('resumeSessionAt needs resume or continue', 'resumeSessionAt')
    if (options.sessionId !== undefined && !UUID.test(options.sessionId)) throw usage(`sessionId must be a UUID, not "${options.sessionId}"`, 'sessionId')
    if (options.sessionId !== undefined && await store?.exists(cwd, options.sessionId, options.env)) {
      throw usage(`session ${options.sessionId} already exists: resume it (resume / --resume) instead of starting it again`, 'sessionId')
    }
    return undefined
  }
  if (options.resume !== undefined && options.continue) throw usage('resume and continue cannot be used together', 'continue')
  if (options.sessionId !== undefined && !options.forkSession) {
    throw usage('sessionId with resume or continue needs forkSession (a resumed session keeps its own id)', 'sessionId')
  }
  if (options.sessionId !== undefined && !UUID.test(options.sessionId)) throw usage(`sessionId must be a UUID, not "${options.sessionId}"`, 'sessionId')
  if (!store) throw usage('this host keeps no sessions (no session store was given), so none can be resumed', options.resume !== undefined ? 'resume' : 'continue')
  const stored = await store.load({ id: options.resume, cwd, env: options.env, fork: options.forkSession === true, at: options.resumeSessionAt }).catch((err: unknown) => {
    // Nothing to continue starts the conversation, as Claude Code's --continue does: `-p -c` run
    // again and again keeps one conversation from the first run on. A fork or a cut of nothing stays an error.
    if (isModloopError(err, 'MODLOOP_ERR_SESSION') && err.field === 'continue' && !options.forkSession && options.resumeSessionAt === undefined) return undefined
    throw err
  })
  if (stored === undefined) return undefined
  return {
    source: options.forkSession ? 'fork' : 'resume',
    sessionId: options.forkSession ? options.sessionId : stored.sessionId,
    from: { sessionId: stored.sessionId, transcriptPath: stored.location, leafUuid: stored.leafUuid },
    rebuilt: stored.rebuilt,
    warnings: stored.warnings,
  }
}
