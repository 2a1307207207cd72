import { ModloopError } from '../core/errors.js'
import type { AskOptions } from '../core/mod/api.js'
import type { Provider } from '../core/mod/build-api.js'
import type { Session } from '../core/loop/session.js'
import { ASK_USER_TOOL } from '../core/tools/ask-user-name.js'
import { modCallSignal, modToolUseId, runModToolCall } from './tool-providers.js'

const HEADER_MAX = 12
const NO_ONE = 'no one can answer a question in this session (it has no AskUserQuestion dialog: -p, or no one answers asks)'

/**
 * `$.ui.ask` has no event of its own (spec mods §3.7): it is a `tool.call` of AskUserQuestion
 * through every hook but the asking mod's, so a mod that answers AskUserQuestion answers it too.
 * Beneath the hooks is the tool where it is offered: its ask goes to whoever answers asks (the
 * terminal's chooser, an ACP editor, `canUseTool`). Where it is not (`-p`), nothing beneath can
 * answer. The one question's answer is the string: a label, several comma-joined, or the text
 * typed under "Other"; dismissed, declined or unanswerable, the call rejects. Choices are 2–4:
 * fewer are padded with Yes/No. The header defaults to the mod's name, so the person sees who asks.
 */
export function askProvider(session: Session): Record<string, Provider> {
  return {
    'ui.ask': async (mod: string, question: unknown, options?: AskOptions) => {
      const input = { questions: [questionOf(mod, question, options)], metadata: { source: mod } }
      let answered: { deny: string } | { isError?: boolean; result?: unknown; text?: string }
      if (session.tools.get(ASK_USER_TOOL)) {
        const o = await runModToolCall(session, ASK_USER_TOOL, input, mod)
        answered = o.denied ? { deny: o.text } : { isError: o.isError, result: o.result, text: o.text }
      } else {
        answered = await session.host.bus.emit('tool.call', { tool: ASK_USER_TOOL, tool_use_id: modToolUseId(), ...input }, () => ({ deny: NO_ONE }), { signal: modCallSignal(session), caller: mod })
      }
      if ('deny' in answered) throw new ModloopError('MODLOOP_ERR_TOOL', `$.ui.ask: ${answered.deny}`, { mod })
      if (answered.isError) throw new ModloopError('MODLOOP_ERR_TOOL', `$.ui.ask: ${answered.text ?? String(answered.result)}`, { mod })
      const given = (answered.result as { answers?: Record<string, unknown> } | undefined)?.answers?.[input.questions[0]!.question]
      const answer = Array.isArray(given) ? given.join(', ') : given
      if (typeof answer !== 'string' || answer === '') throw new ModloopError('MODLOOP_ERR_TOOL', '$.ui.ask: the question was not answered', { mod })
      return answer
    },
  }
}

/** The one AskUserQuestion question `$.ui.ask(question, options)` stands for. */
function questionOf(mod: string, question: unknown, options: AskOptions | undefined) {
  if (typeof question !== 'string' || question.trim() === '') {
    throw new ModloopError('MODLOOP_ERR_USAGE', `${mod}: $.ui.ask needs the question as a non-empty string`, { mod, field: 'question' })
  }
  const given = Array.isArray(options) ? options : options?.options ?? []
  const choices = [...new Set(given.filter((o): o is string => typeof o === 'string' && o !== ''))]
  if (choices.length > 4) throw new ModloopError('MODLOOP_ERR_USAGE', `${mod}: $.ui.ask takes at most 4 choices, got ${choices.length}`, { mod, field: 'options' })
  for (const pad of ['Yes', 'No']) if (choices.length < 2 && !choices.includes(pad)) choices.push(pad)
  const header = (Array.isArray(options) ? undefined : options?.header) ?? mod.slice(0, HEADER_MAX)
  if (header.length > HEADER_MAX) throw new ModloopError('MODLOOP_ERR_USAGE', `${mod}: $.ui.ask's header is at most ${HEADER_MAX} characters, got "${header}"`, { mod, field: 'header' })
  const multiSelect = !Array.isArray(options) && options?.multiSelect === true
  return { question, header, options: choices.map((label) => ({ label, description: '' })), multiSelect }
}
