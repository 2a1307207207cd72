import { existsSync } from 'node:fs'
import { ModloopError } from '../errors.js'
import type { ResumedFrom } from '../events/types.js'
import type { QueryOptions } from '../loop/options.js'
import { findSession, latestSession } from './locate.js'
import { assertUnlocked } from './lock.js'
import { isSessionId, transcriptPath } from './paths.js'
import { rebuildHistory, type Rebuilt } from './rebuild.js'
import { chainTo, readTranscript } from './transcript-read.js'

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
 * What `resume`, `continue`, `forkSession` and `resumeSessionAt` ask for: the session's file
 * (refused while another process writes it, unless forking), its chain, the history rebuilt
 * from it and the totals to carry on. Undefined for a new session.
 */
export async function loadResume(options: QueryOptions, cwd: string): Promise<ResumeState | undefined> {
  const wantsResume = options.resume !== undefined || options.continue === true
  if (!wantsResume) {
    if (options.forkSession) throw usage('forkSession needs resume or continue: it copies an existing session', 'forkSession')
    if (options.resumeSessionAt !== undefined) throw usage('resumeSessionAt needs resume or continue', 'resumeSessionAt')
    if (options.sessionId !== undefined && !isSessionId(options.sessionId)) throw usage(`sessionId must be a UUID, not "${options.sessionId}"`, 'sessionId')
    if (options.sessionId !== undefined && existsSync(transcriptPath(cwd, options.sessionId, options.env))) {
      throw usage(`session ${options.sessionId} already exists: resume it (resume / --resume) instead of starting it again`, 'sessionId')
    }
    return undefined
  }
  if (options.resume !== undefined && options.continue) throw usage('resume and continue cannot be used together', 'continue')
  if (options.sessionId !== undefined && !options.forkSession) {
    throw usage('sessionId with resume or continue needs forkSession (a resumed session keeps its own id)', 'sessionId')
  }
  if (options.sessionId !== undefined && !isSessionId(options.sessionId)) throw usage(`sessionId must be a UUID, not "${options.sessionId}"`, 'sessionId')
  const file = options.resume !== undefined ? await findSession(options.resume, cwd, options.env) : await latestSession(cwd, options.env)
  if (!options.forkSession) assertUnlocked(file.path, file.sessionId)
  const { entries, warnings } = await readTranscript(file.path)
  const chain = chainTo(entries, options.resumeSessionAt)
  const rebuilt = rebuildHistory(chain)
  if (rebuilt.repaired > 0) {
    warnings.push(`${file.path}: ${rebuilt.repaired} tool call${rebuilt.repaired === 1 ? '' : 's'} had no result (the session stopped while ${rebuilt.repaired === 1 ? 'it' : 'they'} ran); answered with an error`)
  }
  return {
    source: options.forkSession ? 'fork' : 'resume',
    sessionId: options.forkSession ? options.sessionId : file.sessionId,
    from: { sessionId: file.sessionId, transcriptPath: file.path, leafUuid: chain.at(-1)?.uuid ?? null },
    rebuilt,
    warnings,
  }
}
