import type { PermissionResult } from '../../core/tools/pipeline.js'
import { Chooser, type Chosen } from './chooser.js'

interface Question { question: string; header?: string; options: { label: string; description?: string }[]; multiSelect?: boolean }

const OTHER = -1
const CANCEL = -2

/**
 * AskUserQuestion's ask: each question in turn as a chooser of its options, with "Other" to type
 * an answer; a multi-select one checks options with Space. Once the last is answered, the call is
 * allowed with the questions and their `answers` (question text → label, several joined with
 * ", ", or the text typed), which the tool turns into what the model reads. Esc declines them all.
 */
export function questionAsk(input: Record<string, unknown>, show: (chooser: Chooser<number>) => void, done: (result: PermissionResult, cancelled: boolean) => void): void {
  const questions = (input.questions ?? []) as Question[]
  const answers: Record<string, string> = {}
  const next = (i: number) => {
    const q = questions[i]
    if (!q) return done({ behavior: 'allow', updatedInput: { ...input, answers } }, false)
    const choices = [
      ...q.options.map((o, n) => ({ label: o.description ? `${o.label} — ${o.description}` : o.label, value: n })),
      { label: 'Other', value: OTHER, withText: 'your answer' },
    ]
    const title = [q.header ? `${q.header}: ${q.question}` : q.question, ...(questions.length > 1 ? [`question ${i + 1} of ${questions.length}`] : [])]
    show(new Chooser<number>(title, choices, (chosen) => {
      if (chosen.value === CANCEL) return done({ behavior: 'deny', message: 'The user declined to answer the questions.' }, true)
      const answer = answerOf(q, chosen)
      if (answer) answers[q.question] = answer
      next(i + 1)
    }, CANCEL, q.multiSelect === true))
  }
  next(0)
}

/** The labels picked (several joined with ", ") and the text typed under "Other". */
function answerOf(q: Question, chosen: Chosen<number>): string {
  const picked = (chosen.checked ?? (chosen.value === OTHER ? [] : [chosen.value])).filter((n) => n >= 0).map((n) => q.options[n]!.label)
  const typed = chosen.value === OTHER ? chosen.text?.trim() : undefined
  return [...picked, ...(typed ? [typed] : [])].join(', ')
}
