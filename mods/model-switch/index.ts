import { defineMod } from '../../core/mod/define.js'
import { describeError } from '../../core/errors.js'
import { opusplan } from './opusplan.js'
import { registerCommands } from '../_shared/register-command.js'

const COMMANDS = [
  { name: 'model', description: 'Show or switch the model', argumentHint: '[name|default]', kind: 'local' as const },
  { name: 'effort', description: "Show or set the session's reasoning effort", argumentHint: '[low|medium|high|xhigh|max|auto]', kind: 'local' as const },
]

const USAGE = '/model <name>: switch to a model id or an alias (opus, sonnet, haiku, opusplan: Opus in plan mode, else Sonnet); /model default: back to the default'

/**
 * `/model`: shows the session's model, or switches it for the requests that follow. The switch
 * goes through `$.config.set`, so `model.switch` handlers (and PreModelSwitch hooks) may refuse it.
 * `/effort`: the same for the reasoning effort (effort.ts).
 */
export default defineMod({
  name: 'model-switch',
  description: 'The /model and /effort commands',
  uses: { permissionMode: 'optional', settingsModel: 'optional' },
  register(on) {
    opusplan(on)
    on('session.start', async ($, e, next) => {
      await registerCommands($, COMMANDS)
      return next(e)
    })

    // Its code loads when it first runs: most sessions never change the effort.
    on('command.run', { command: 'effort' }, async ($, e) => ({ output: await (await import('./effort.js')).effortCommand($, e.args) }))

    on('command.run', { command: 'model' }, async ($, e) => {
      const name = e.args.trim()
      if (!name) return { output: `Model: ${String($.session.model())}\n${USAGE}` }
      let r: { value: string } | { deny: string }
      try {
        r = (await $.config.set({ key: 'model', value: name === 'default' ? null : name })) as typeof r
      } catch (err) {
        return { deny: describeError(err) }
      }
      if ('deny' in r) return { deny: `Model switch to ${name} refused: ${r.deny}` }
      return { output: `Model set to ${r.value}` }
    })
  },
})
