import type { Session } from '../core/loop/session.js'
import type { RewindFilesResult } from '../core/mod/session-capabilities.js'

export async function rewindFiles(session: Session, userMessageId: string, options: { dryRun?: boolean } = {}): Promise<RewindFilesResult> {
  const rewind = session.host.capabilities.get('fileRewind')
  if (typeof rewind !== 'function') {
    return { canRewind: false, error: 'File checkpointing is not enabled for this session (enableFileCheckpointing, or --checkpoint).' }
  }
  return rewind(userMessageId, options)
}
