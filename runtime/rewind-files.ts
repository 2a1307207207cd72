import type { Session } from '../core/loop/session.js'
import type { RewindFilesResult } from '../core/mod/session-capabilities.js'

/**
 * Query.rewindFiles: a dry run answers whether the rewind can be done (`canRewind`, and `error`
 * when not); a rewind that cannot be done rejects with the reason, as the SDK's does, so a caller
 * that awaits it does not take a failed rewind for a done one.
 */
export async function rewindFiles(session: Session, userMessageId: string, options: { dryRun?: boolean } = {}): Promise<RewindFilesResult> {
  const rewind = session.host.capabilities.get('fileRewind')
  const r: RewindFilesResult = typeof rewind === 'function'
    ? await rewind(userMessageId, options)
    : { canRewind: false, error: 'File checkpointing is not enabled for this session (enableFileCheckpointing, or --checkpoint).' }
  if (!r.canRewind && options.dryRun !== true) throw new Error(r.error ?? 'the files could not be rewound')
  return r
}
