import { ModloopError } from '../core/errors.js'
import type { Session } from '../core/loop/session.js'
import { sideAnswerOf, sideQuestionPrompt, type SideAnswer } from '../core/loop/side-question.js'
import { fork } from './complete.js'

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
