import type { AskInput, Question } from './input.js'

/**
 * The text the model reads for the answers, as Claude Code words it. Each answered question (an
 * empty answer is none) reads `"question"="answer"`, a list joined with commas, then the preview
 * the user picked and their notes. When every answer is one of the question's labels (several,
 * joined with ", ", for multi-select) and carries no notes, the model may just go on; typed text
 * or notes may ask for something else, so the model is told to read them.
 */
export function answersText({ questions, answers = {}, annotations = {} }: AskInput): string {
  const parts: string[] = []
  let picked = true
  for (const [text, given] of Object.entries(answers)) {
    const value = Array.isArray(given) ? given.join(',') : given
    if (value === '') continue
    const note = annotations[text]
    if (!isPicked(questions.find((q) => q.question === text), given) || note?.notes) picked = false
    parts.push(`"${text}"="${value}"${note?.preview ? ` selected preview:\n${note.preview}` : ''}${note?.notes ? ` notes: ${note.notes}` : ''}`)
  }
  if (parts.length === 0) return 'The user did not answer the questions.'
  return picked
    ? `Your questions have been answered: ${parts.join(', ')}. You can now continue with these answers in mind.`
    : `The user answered: ${parts.join(', ')}. Read the answers carefully - they may request clarification, changes, or that you not proceed - and follow what they actually say.`
}

/** Whether the answer is the question's own choice: a label, or labels for a multi-select one. */
function isPicked(q: Question | undefined, given: string | string[]): boolean {
  if (!q) return false
  const labels = new Set(q.options.map((o) => o.label))
  if (Array.isArray(given)) return (q.multiSelect || given.length === 1) && given.every((l) => labels.has(l))
  return labels.has(given) || (q.multiSelect && given.split(', ').every((l) => labels.has(l)))
}
