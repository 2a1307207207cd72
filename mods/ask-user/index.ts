import { defineMod } from '../../core/mod/define.js'
import type { ModApi } from '../../core/mod/api.js'
import { launchFlags } from '../_shared/launch-flags.js'
import { registerTool } from '../_shared/register-tool.js'
import { ASK_USER_TOOL } from './name.js'

const DESCRIPTION = `Asks the user one to four multiple-choice questions and waits for their answers. Call it only when you are stuck on a decision that belongs to the user: one the request, the code and sensible defaults do not settle.

- The user can always answer in their own words through an "Other" choice, so do not offer one.
- Set multiSelect: true when several answers may be picked together.
- If you favour one option, put it first and end its label with "(Recommended)".
- Do not ask what you can find out yourself, nor about choices with an obvious convention: take that choice, say so, and go on.
- While the question is open the user may see only the question, not what you wrote or found before it: make each question stand on its own, naming what it is about.
- In plan mode, use it to settle requirements or pick an approach before the plan is done; to ask for approval of the plan, call ExitPlanMode instead, and never refer to "the plan" in a question (the user cannot see it yet).`

// Where the host shows an option's preview as HTML (the Agent SDK's toolConfig.askUserQuestion.previewFormat).
const HTML_PREVIEWS = '- An option\'s preview, when you give one, is a self-contained HTML fragment that the user\'s screen renders: no <html>, <head> or <body>, no scripts, styles inline.'

/**
 * How the host shows previews: query()'s `toolConfig.askUserQuestion.previewFormat`, else
 * CLAUDE_CODE_QUESTION_PREVIEW_FORMAT (how the Agent SDK hands its toolConfig to the CLI), else
 * Markdown. Another value is named in a warning, and Markdown stands.
 */
async function previewFormat($: ModApi): Promise<'markdown' | 'html'> {
  // A host without launch flags: the environment alone says.
  const flags = await launchFlags<{ toolConfig: { askUserQuestion?: { previewFormat?: unknown } } }>($)
  const option = flags?.toolConfig?.askUserQuestion?.previewFormat
  const [value, from] = option !== undefined ? [option, 'toolConfig.askUserQuestion.previewFormat'] : [$.env.get('CLAUDE_CODE_QUESTION_PREVIEW_FORMAT'), 'CLAUDE_CODE_QUESTION_PREVIEW_FORMAT']
  if (value === undefined || value === '' || value === 'markdown' || value === 'html') return value === 'html' ? 'html' : 'markdown'
  $.log.warn(`${from} must be "markdown" or "html", got ${JSON.stringify(value)}; previews stay Markdown`)
  return 'markdown'
}

/**
 * AskUserQuestion: the model asks the user multiple-choice questions. The permission check always
 * sends the call to whoever answers asks (the terminal, the SDK's canUseTool), which allows it with
 * the questions and their `answers` as the input; the call only turns those answers into the text
 * the model reads. So the tool is offered only where someone answers asks, and never to subagents.
 */
export default defineMod({
  name: 'ask-user',
  description: 'The AskUserQuestion tool',
  register(on) {
    on('session.start', async ($, e, next) => {
      if (e.canAsk) {
        // Loaded only where the tool is offered: plain -p builds no schema for it.
        const [{ askInput, askHtmlInput }, { answersText }] = await Promise.all([import('./input.js'), import('./answers.js')])
        const html = (await previewFormat($)) === 'html'
        await registerTool($, {
          name: ASK_USER_TOOL, description: html ? `${DESCRIPTION}\n${HTML_PREVIEWS}` : DESCRIPTION, input: html ? askHtmlInput : askInput,
          // It waits on a person: never beside other calls.
          isReadOnly: false,
          traits: { mainThreadOnly: true, asksUser: true },
          call: (input) => ({
            result: { questions: input.questions, answers: input.answers ?? {}, ...(input.annotations ? { annotations: input.annotations } : {}) },
            text: answersText(input),
          }),
        })
      }
      return next(e)
    })
  },
})
