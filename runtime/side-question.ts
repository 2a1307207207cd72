import { ModloopError } from '../core/errors.js'
import type { Session } from '../core/loop/session.js'
import type { ForkResult } from '../core/mod/contracts.js'
import { fork } from './complete.js'

/**
 * A side question's answer (`/btw`, the SDK's `side_question` control): `response` is the text to
 * show, null when the model said nothing or the question was called off. `synthetic` marks a
 * response modloop wrote instead of the model's plain answer: the model reached for a tool (which
 * a side question never runs), the request failed, or there was no conversation to ask about.
 */
export interface SideAnswer {
  response: string | null
  synthetic: boolean
}

/** What `/btw` with no question answers, without a model call. */
export const SIDE_USAGE = 'Usage: /btw <your question>'

/**
 * The words that go after the conversation: the question, behind a reminder that this one request
 * is a separate, tool-less, single answer from what is already known. The main conversation's
 * turn goes on without it, so the model must not take it for a change of course either.
 */
export function sideQuestionPrompt(question: string): string {
  return [
    '<system-reminder>The user is asking a side question. Answer it in this one reply.',
    '',
    '- You are answering beside the main work, which goes on without you: do not continue it, and do not speak of being interrupted.',
    '- No tool runs for this reply: you cannot read files, run commands or search. Do not offer or promise to.',
    '- Answer only from what this conversation already shows and what you know. If that is not enough, say so plainly.',
    '- Nothing follows this reply: no further turn will happen.</system-reminder>',
    '',
    question,
  ].join('\n')
}

const TRIED_TOOL = '(The model tried to use a tool to answer, and a side question runs none. Ask it in the conversation instead, where tools run.)'
const NOTHING_YET = '(Nothing has been said in this conversation yet, so there is nothing to ask a side question about. Send it as a prompt instead.)'

/** The fork's outcome as a side question's answer. */
export function sideAnswerOf(r: ForkResult): SideAnswer {
  const tried = ('content' in r ? r.content ?? [] : []).some((b) => b.type === 'tool_use')
  if (r.isAnswered) {
    const text = r.text.trim()
    return tried ? { response: text || TRIED_TOOL, synthetic: true } : { response: text || null, synthetic: false }
  }
  if (r.reason === 'nothing-to-fork') return { response: NOTHING_YET, synthetic: true }
  if (r.reason === 'aborted') return { response: null, synthetic: true }
  if (r.reason === 'api-error') return { response: `(The side question failed: ${r.message ?? r.error ?? 'the API refused it'}${r.status ? ` (HTTP ${r.status})` : ''}.)`, synthetic: true }
  return tried ? { response: TRIED_TOOL, synthetic: true } : { response: null, synthetic: false }
}

/**
 * `Query.askSideQuestion`: the question after the main conversation as its next request would
 * send it (model, system prompt, tools, reasoning), so the prompt cache serves all but the
 * question. The session's history is only read: a turn running meanwhile is not waited for.
 */
export async function askSideQuestion(session: Session, question: unknown, signal?: AbortSignal): Promise<SideAnswer> {
  if (typeof question !== 'string' || question.trim() === '') {
    throw new ModloopError('MODLOOP_ERR_USAGE', 'askSideQuestion: question must be a non-empty string', { field: 'question' })
  }
  return sideAnswerOf(await fork(session, { prompt: sideQuestionPrompt(question.trim()) }, signal))
}
