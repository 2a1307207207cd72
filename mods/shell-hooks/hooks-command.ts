import type { On } from '../../core/bus/types.js'
import { hooksText } from './listing.js'
import type { ShellHooksOptions } from './options.js'

/** `/hooks`: lists the settings hooks that apply in the session's directory, in every kind of session. */
export function registerHooksCommand(on: On, opts: ShellHooksOptions): void {
  on('session.start', async ($, e, next) => {
    const result = await next(e)
    $.command.register({ name: 'hooks', description: 'Show the settings hooks that apply here, by event and source', kind: 'local' })
    return result
  })

  on('command.run', async ($, e, next) => {
    if (e.command !== 'hooks') return next(e)
    const config = $.capability.use('configHooks')
    let flags: { settings?: string[] } = {}
    try {
      flags = (await $.settings.read({ source: 'flag' })) as typeof flags
    } catch {
      // A host without launch flags: the settings files and the config only.
    }
    return { output: await hooksText($.session.cwd() as string, $.env.all(), { config, settings: flags.settings }, opts) }
  })
}
