import type { CommandRunResult } from '../../core/events/types.js'
import type { ModApi } from '../../core/mod/api.js'
import { SIDE_USAGE, sideAnswerOf, sideQuestionPrompt } from '../../runtime/side-question.js'

/**
 * `/btw <question>` sent as a prompt (`-p`, streaming input): the side question is asked over the
 * conversation so far and its answer is the turn's result, unrecorded, so the next turn's request
 * holds neither the question nor the answer. The terminal asks it at once instead, beside a
 * running turn (Query.askSideQuestion); here it waits its turn like any prompt.
 */
export async function btwCommand($: ModApi, args: string): Promise<CommandRunResult> {
  const question = args.trim()
  if (!question) return { output: SIDE_USAGE, unrecorded: true }
  const answer = sideAnswerOf(await $.model.fork({ prompt: sideQuestionPrompt(question) }))
  return { output: answer.response ?? '(The model gave no answer.)', unrecorded: true }
}
