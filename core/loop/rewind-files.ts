import type { Session } from './session.js'

/** What `Query.rewindFiles` answers (the Agent SDK's RewindFilesResult). */
export interface RewindFilesResult {
  canRewind: boolean
  error?: string
  filesChanged?: string[]
  insertions?: number
  deletions?: number
}

/** Restores the files as they were before a user message's turn; `dryRun` only reports. */
export type RewindService = (userMessageId: string, options: { dryRun?: boolean }) => Promise<RewindFilesResult>

declare module '../mod/capabilities.js' {
  interface Capabilities {
    /** The file checkpoints of the session (a checkpointing mod provides it); without it rewindFiles answers that checkpointing is off. */
    fileRewind: RewindService
  }
}

export async function rewindFiles(session: Session, userMessageId: string, options: { dryRun?: boolean } = {}): Promise<RewindFilesResult> {
  const rewind = session.host.capabilities.get('fileRewind')
  if (typeof rewind !== 'function') {
    return { canRewind: false, error: 'File checkpointing is not enabled for this session (enableFileCheckpointing, or --checkpoint).' }
  }
  return rewind(userMessageId, options)
}
