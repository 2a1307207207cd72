import type { ModApi } from '../../core/mod/api.js'
import { sessionDirOf, transcriptPath } from '../transcripts/store/paths.js'
import { join } from 'node:path'

/** The transcript's path as the mod that writes it provides it (`transcriptFile`), else where it would be. */
export function sessionPath($: ModApi): string {
  const published = $.capability.use('transcriptFile')?.($.session.id() as string)
  if (published !== undefined) return published
  // Where the session opened: a move (EnterWorktree) does not move its files.
  return transcriptPath($.session.root() as string, $.session.id() as string, { MODLOOP_HOME: $.env.get('MODLOOP_HOME') })
}

/** Where a session's large tool results go: `<session dir>/tool-results/`, beside its transcript (spec §3.11). */
export const toolResultsDirOf = ($: ModApi): string => join(sessionDirOf(sessionPath($)), 'tool-results')

/** A file name from a tool_use id, which the API makes of [A-Za-z0-9_-], kept safe whatever it holds. */
export const toolResultFile = (toolUseId: string, extension = 'txt'): string => `${toolUseId.replace(/[^A-Za-z0-9_-]/g, '_') || 'result'}.${extension}`

/** A file extension for saved binary content: the MIME subtype (`audio/wav` → wav), else bin. */
export function extensionOf(mimeType: string | undefined): string {
  const sub = /^[a-z]+\/(?:x-)?([a-z0-9]+)/i.exec(mimeType ?? '')?.[1]?.toLowerCase()
  return sub && sub !== 'octet' ? sub : 'bin'
}
