import type { Rebuilt, StoredSession } from '../../../core/session/store.js'
import type { MessageEntry, TranscriptEntry } from './entry.js'
import { rebuildHistory } from './rebuild.js'
import { bridgedLinks, chainTo, type ReadTranscript } from './transcript-read.js'

/** A read transcript rebuilt for the loop to go on from (up to the message `at` when given): what a store's `load` answers. */
export function restoreSession(sessionId: string, location: string, read: ReadTranscript, at?: string): StoredSession {
  const warnings = [...read.warnings]
  const chain = chainTo(read.entries, at)
  const rebuilt = rebuildHistory(chain)
  const attachments = attachmentsOn(read.entries, chain)
  if (attachments) rebuilt.attachments = attachments
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

/**
 * The attachment lines mods recorded beside the chain (each names the message it was written
 * after as its `parentUuid`) since the chain's last compaction: the last of each type. One hung
 * from another branch, or from before the compaction, is not this conversation's.
 */
function attachmentsOn(entries: readonly TranscriptEntry[], chain: readonly MessageEntry[]): Rebuilt['attachments'] {
  const at = new Map(chain.map((e, i) => [e.uuid, i]))
  const boundary = chain.findLastIndex((e) => e.type === 'system' && e.subtype === 'compact_boundary')
  let found: Record<string, Record<string, unknown>> | undefined
  for (const e of entries) {
    const attachment = e.type === 'attachment' ? e.attachment : undefined
    if (typeof attachment !== 'object' || attachment === null || typeof (attachment as { type?: unknown }).type !== 'string') continue
    const place = typeof e.parentUuid === 'string' ? at.get(e.parentUuid) : undefined
    if (place === undefined || place < boundary) continue
    ;(found ??= {})[(attachment as { type: string }).type] = attachment as Record<string, unknown>
  }
  return found
}
