import { z } from 'zod'
import { builtinInput } from '../_shared/builtin-input.js'

/** What an option's `preview` holds: Markdown or plain text (the default), or an HTML fragment (the Agent SDK's `toolConfig.askUserQuestion.previewFormat`). */
export type PreviewFormat = 'markdown' | 'html'

const PREVIEW: Record<PreviewFormat, string> = {
  markdown: 'Shown beside the option while it is focused: a mockup, a code sample, a comparison',
  html: 'Shown beside the option while it is focused: a mockup, a code sample, a comparison, as a self-contained HTML fragment (no <html>, <head> or <body>, no scripts, styles inline)',
}

/** The tool's input schema, its options' previews described in `format`. */
function askSchema(format: PreviewFormat) {
  const option = z.object({
    label: z.string().describe('What the user sees and picks: a few words naming the choice'),
    description: z.string().describe('What picking it means: its consequence or trade-off'),
    preview: z.string().optional().describe(PREVIEW[format]),
  })
  const question = z.object({
    question: z.string().describe('The whole question, ending in a question mark; for multiSelect, worded for several answers'),
    header: z.string().describe('A very short tag shown with the question (at most 12 characters), e.g. "Database"'),
    options: z.array(option)
      // One option is no decision: say so, so the model takes that path instead of padding the list.
      .min(2, 'a question needs 2 to 4 distinct options; with only one there is nothing to decide, so take that path and go on without asking')
      .max(4)
      .describe('2 to 4 distinct choices; do not add an "Other" choice, the user always gets one'),
    multiSelect: z.boolean().default(false).describe('true lets the user pick several options'),
  })
  return z.object({
    questions: z.array(question).min(1).max(4).describe('1 to 4 questions for the user'),
    answers: z.record(z.string(), answer).optional().describe('Filled in by whoever answers the questions, by question text; leave it out'),
    annotations: z.record(z.string(), z.object({
      preview: z.string().optional().describe('The preview of the option the user picked'),
      notes: z.string().optional().describe('Notes the user added to the answer'),
    })).optional().describe('Filled in by whoever answers: per question text, the picked preview and notes; leave it out'),
    metadata: z.object({ source: z.string().optional() }).optional().describe('Where the question came from, for tracking; not shown'),
  }).refine(
    ({ questions }) => new Set(questions.map((q) => q.question)).size === questions.length && questions.every((q) => new Set(q.options.map((o) => o.label)).size === q.options.length),
    'Question texts must be unique, option labels must be unique within each question',
  )
}

/** A question's answer as a host gives it: one label or typed text, or (multi-select) several labels, joined or as a list. */
const answer = z.union([z.string(), z.array(z.string())])

export const askInput = builtinInput('AskUserQuestion', () => askSchema('markdown'))
/** The same, for a host that shows previews as HTML. */
export const askHtmlInput = builtinInput('AskUserQuestion:html', () => askSchema('html'))

export type AskInput = z.output<ReturnType<typeof askInput>>
export type Question = AskInput['questions'][number]
