import { ModloopError } from '../core/errors.js'
import type { AskOptions } from '../core/mod/api.js'
import type { ModHost } from '../core/mod/host.js'

/**
 * Serves `$.ui.ask` as the `ui.ask` event: a surface mod (the terminal) answers it; beneath every
 * handler the answer is null, so headless runs and `query()` get "no UI" as a value, not a throw.
 * Choices are 2–4 as the mod model has them: fewer are padded with Yes/No. While the person
 * thinks, the asking mod's handlers are paused, as during any `$` call (core/mod/build-api.ts):
 * the wait is not their own time. The `ui.ask` handlers that wait on the person run on `ui.ask`'s budget.
 */
export function installAsk(host: ModHost): void {
  host.provide({
    'ui.ask': async (mod: string, question: unknown, options?: AskOptions) => {
      if (typeof question !== 'string' || question.trim() === '') {
        throw new ModloopError('MODLOOP_ERR_USAGE', `${mod}: $.ui.ask needs the question as a non-empty string`, { mod, field: 'question' })
      }
      const given = Array.isArray(options) ? options : options?.options ?? []
      const choices = [...new Set(given.filter((o): o is string => typeof o === 'string' && o !== ''))]
      if (choices.length > 4) throw new ModloopError('MODLOOP_ERR_USAGE', `${mod}: $.ui.ask takes at most 4 choices, got ${choices.length}`, { mod, field: 'options' })
      for (const pad of ['Yes', 'No']) if (choices.length < 2 && !choices.includes(pad)) choices.push(pad)
      const extra = Array.isArray(options) ? {} : { ...(options?.header ? { header: options.header } : {}), ...(options?.multiSelect ? { multiSelect: true } : {}) }
      const r = await host.bus.emit('ui.ask', { question, options: choices, ...extra, mod })
      return r.answer
    },
  })
}
