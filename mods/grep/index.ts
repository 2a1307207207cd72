import { z } from 'zod'
import { defineMod } from '../../core/mod/define.js'
import { allowedDirsOptions, confinementLifted, sessionDirectories } from '../_shared/allowed-paths.js'
import { registerTool } from '../_shared/register-tool.js'
import { GREP_DESCRIPTION, grepInput } from './grep-input.js'
import { grepTool } from './grep-tool.js'
import { builtinOptions } from '../_shared/builtin-options.js'

const options = builtinOptions('grep', () => allowedDirsOptions().extend({
  /**
   * auto: ripgrep when it is on PATH, else the built-in JavaScript search (same results, but for one
   * limit: in a file past 8 MiB a multiline match longer than 1 MiB may be missed; docs/reliability.md).
   */
  engine: z.enum(['auto', 'rg', 'js']).default('auto'),
}))

/** Grep: regex search of file contents, through ripgrep when available. */
export default defineMod({
  name: 'grep',
  description: 'The Grep tool',
  options,
  uses: { permissions: 'optional' },
  register(on, opts) {
    on('session.start', async ($, e, next) => {
      await registerTool($, { name: 'Grep', description: GREP_DESCRIPTION, input: grepInput, isReadOnly: true, call: async (input, ctx) => grepTool(input, ctx, { ...opts, additionalDirectories: await sessionDirectories($, opts.additionalDirectories), anywhere: confinementLifted($), denied: $.capability.use('permissions')?.deniedPaths('Grep') }) })
      return next(e)
    })
  },
})
