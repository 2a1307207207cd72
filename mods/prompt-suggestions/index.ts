import type { SDKResultMessage } from '../../core/loop/messages.js'
import type { ModApi } from '../../core/mod/api.js'
import { defineMod } from '../../core/mod/define.js'
import { describeError } from '../../core/errors.js'
import { envFalse } from '../../core/env.js'
import { suggestionOf } from './filter.js'

// What the model is asked after the conversation, in a request that shares the turn's prompt cache.
const PROMPT = [
  '[Prompt suggestion] Do not answer or continue the work. Guess what the user will type next, in their own words and style.',
  '',
  'Take it from what they asked and where the work stands: a request that is half done gets its next step ("now run the tests"); a question you asked them gets the answer they would most likely give ("yes", "go ahead"); finished work gets the obvious follow-up ("commit this").',
  '',
  'Reply with the guess alone: one instruction of 2 to 12 words, without quotes or explanation. No thanks or praise, no questions of your own, nothing in your voice ("Let me...", "I\'ll..."), no idea they did not ask about, nothing unsafe or sensitive.',
  'When the next step is not clear (an error, a misunderstanding, a finished conversation), reply with nothing at all.',
].join('\n')

/**
 * `promptSuggestions`: after each turn of the main conversation that answered, a guess at the
 * person's next prompt, as a `prompt_suggestion` message after the turn's result, as Claude Code
 * sends one. Not after the first answer, an error, a local command or in plan mode, nor when
 * CLAUDE_CODE_ENABLE_PROMPT_SUGGESTION is false; a guess that fails or is not worth showing is
 * dropped without a word. The next prompt cancels a guess still being made.
 */
export default defineMod({
  name: 'prompt-suggestions',
  description: 'A guess at the next prompt after each turn (the promptSuggestions option)',
  uses: { permissionMode: 'optional' },
  register(on) {
    let enabled = false
    let pending: AbortController | undefined
    on('session.start', async ($, e, next) => {
      enabled = (await askedFor($)) && !envFalse($.env.get('CLAUDE_CODE_ENABLE_PROMPT_SUGGESTION'))
      return next(e)
    })
    on('session.message', ($, e, next) => {
      if (!enabled || e.agentId) return next(e)
      const m = e.message
      if (m.type === 'user') pending?.abort()
      // Started as the result is recorded, before the caller sees it: the run is held open for the
      // guess, which reaches the stream after the result.
      if (m.type === 'result' && worthAsking($, m)) pending = suggest($)
      return next(e)
    })
  },
})

function suggest($: ModApi): AbortController {
  const abort = new AbortController()
  const release = $.session.hold({ reason: 'a prompt suggestion', quiet: true })
  void (async () => {
    try {
      const r = await $.model.fork({ prompt: PROMPT }, { signal: abort.signal })
      const suggestion = r.isAnswered && !abort.signal.aborted ? suggestionOf(r.text) : undefined
      if (suggestion) $.session.append({ message: { type: 'prompt_suggestion', suggestion } })
    } catch (err) {
      $.log.debug(`no prompt suggestion: ${describeError(err)}`)
    } finally {
      release()
    }
  })()
  return abort
}

function worthAsking($: ModApi, m: SDKResultMessage): boolean {
  if (m.subtype !== 'success' || m.is_error || m.api_error_status || m.local_command) return false
  if ($.capability.use('permissionMode')?.mode() === 'plan') return false
  // The first answer has nothing to go on yet: Claude Code waits for a second one.
  return $.session.messages().filter((x) => x.role === 'assistant').length >= 2
}

async function askedFor($: ModApi): Promise<boolean> {
  try {
    return ((await $.settings.read({ source: 'flag' })) as { promptSuggestions?: unknown })?.promptSuggestions === true
  } catch {
    return false
  }
}

