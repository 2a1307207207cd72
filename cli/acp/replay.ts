import type { SessionUpdate } from '@agentclientprotocol/sdk'
import type { SDKMessage } from '../../core/loop/messages.js'
import { isPrompt, type MessageEntry } from '../../mods/transcripts/store/entry.js'
import { promptText } from '../../mods/transcripts/store/list.js'
import { findSession } from '../../mods/transcripts/store/locate.js'
import { chainTo, readTranscript } from '../../mods/transcripts/store/transcript-read.js'
import { UpdateStream } from './updates.js'

/**
 * A saved session's conversation as the updates an editor would have seen live: the prompts as
 * user message chunks, the answers, thinking, tool calls with their results and plans. What a
 * runtime marked (nudges, a compaction's summary and the recent messages it kept) stays out, as it
 * was never shown.
 */
export async function replayUpdates(sessionId: string, cwd: string, env: Record<string, string | undefined>): Promise<SessionUpdate[]> {
  const file = await findSession(sessionId, cwd, env)
  const { entries } = await readTranscript(file.path)
  const stream = new UpdateStream(false)
  // A compaction records the new history after its boundary, up to its closing status line: the
  // summary and copies of the recent messages already replayed from before it.
  let compacted = false
  return chainTo(entries).flatMap((e) => {
    if (e.type === 'system') compacted = e.subtype === 'compact_boundary'
    if (compacted) return []
    const m = asMessage(e)
    return m ? stream.of(m) : []
  })
}

function asMessage(e: MessageEntry): SDKMessage | undefined {
  if (e.type === 'assistant') return { type: 'assistant', message: e.message, parent_tool_use_id: null, uuid: e.uuid, session_id: e.sessionId }
  if (e.type !== 'user') return undefined
  if (isPrompt(e)) {
    // What was typed is the first text block (a command's header, read back as typed); the context the runtime attached follows it as more text blocks.
    const images = typeof e.message.content === 'string' ? [] : e.message.content.filter((b) => b.type === 'image')
    return { type: 'user', message: { role: 'user', content: [{ type: 'text', text: promptText(e) ?? '' }, ...images] }, parent_tool_use_id: null }
  }
  return { type: 'user', message: e.message, parent_tool_use_id: null, ...(e.isMeta || e.isCompactSummary ? { isSynthetic: true } : {}) }
}
