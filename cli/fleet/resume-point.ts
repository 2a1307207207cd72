import type { SDKResultMessage } from '../../core/loop/messages.js'
import { isPrompt, isTurnResult, type MessageEntry } from '../../mods/transcripts/store/entry.js'
import { chainTo, parseTranscript } from '../../mods/transcripts/store/transcript-read.js'

/**
 * What a job's session says about a run of it that stopped (its worker died or shut down, or the API failed its turn): the turn had ended
 * (its result is on the record: the job is done, not run again), the prompt was taken but the turn
 * did not end (resume the session and carry on), or the prompt never reached the store (run it).
 */
export type ResumePoint =
  | { kind: 'ended'; result: SDKResultMessage }
  | { kind: 'cut' }
  | { kind: 'not-started' }

/**
 * `leafBefore`: the last message of the session before this job's prompt (null: the job started the
 * session); `prompt`: the job's prompt. Another run may have gone on with the session after
 * `leafBefore` (a job before this one on it, or someone resuming it by hand): its turns are not this
 * job's, so only what follows this job's own prompt (or the carry-on prompt of a later run of it)
 * up to another's prompt says how far this job got.
 */
export function resumePoint(transcript: string | undefined, sessionId: string, leafBefore: string | null, prompt: string): ResumePoint {
  if (!transcript) return { kind: 'not-started' }
  const chain = chainTo(parseTranscript(transcript).entries)
  const from = leafBefore === null ? 0 : chain.findIndex((e) => e.uuid === leafBefore) + 1
  const since = chain.slice(from)
  const ours = (e: MessageEntry) => { const text = promptText(e); return text === prompt || text === CARRY_ON }
  const start = since.findIndex((e) => isPrompt(e) && ours(e))
  if (start < 0) return { kind: 'not-started' }
  for (const e of since.slice(start + 1)) {
    if (isPrompt(e) && !ours(e)) break
    // A turn the worker interrupted as it shut down ended aborted: that run was cut too; and one the
    // API failed (the job failed, to run again) did not do the task.
    if (isTurnResult(e) && !String(e.result.terminal_reason).startsWith('aborted') && e.result.terminal_reason !== 'api_error') return { kind: 'ended', result: resultOf(e, sessionId) }
  }
  return { kind: 'cut' }
}

/** The text of a prompt line (its text blocks joined). */
function promptText(e: MessageEntry): string {
  const content = (e.message as { content?: unknown }).content
  if (typeof content === 'string') return content
  return Array.isArray(content) ? content.filter((b: { type?: string }) => b.type === 'text').map((b: { text?: string }) => b.text ?? '').join('') : ''
}

/** The last message of a session's history, for a job that goes on from it. */
export function leafOf(transcript: string | undefined): string | null {
  return transcript ? chainTo(parseTranscript(transcript).entries).at(-1)?.uuid ?? null : null
}

function resultOf(e: MessageEntry & { result: object }, sessionId: string): SDKResultMessage {
  return { type: 'result', ...(e.result as Omit<SDKResultMessage, 'type' | 'permission_denials' | 'session_id' | 'uuid'>), permission_denials: [], session_id: sessionId, uuid: e.uuid }
}

/** The prompt a job resumes its cut session with: the model goes on from the history it has. */
export const CARRY_ON = 'The run of this job stopped before its turn ended (the worker running it went away, or the model API kept failing), and this session was resumed to finish it. ' +
  'Carry on with the task from where the conversation above stops. A tool call without a result may or may not have run: check its effect before relying on it.'
