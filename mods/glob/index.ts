import { z } from 'zod'
import { defineMod } from '../../core/mod/define.js'
import { allowedDirsOptions, confinementLifted, sessionDirectories } from '../_shared/allowed-paths.js'
import { registerTool } from '../_shared/register-tool.js'
import { publishToolOutput } from '../_shared/tool-output.js'
import { globOutputShape } from './output-shape.js'
import { globDescription, globInput, globTool } from './glob-files.js'
import { globSwitch, type GlobSwitches } from './skipped-dirs.js'
import { builtinOptions } from '../_shared/builtin-options.js'

const options = builtinOptions('glob', () => allowedDirsOptions().extend({
  /** Globs (relative to the searched directory) that are never matched. */
  ignore: z.array(z.string()).default(['**/.git/**', '**/node_modules/**']),
  maxResults: z.number().int().min(1).default(100),
}))

/** Glob: file paths matching a pattern, newest first, capped. */
export default defineMod({
  name: 'glob',
  description: 'The Glob tool',
  options,
  provides: ['toolOutput.Glob'],
  uses: { permissions: 'optional' },
  register(on, opts) {
    on('session.start', async ($, e, next) => {
      // Read from the session's environment (settings `env` included) at each call, as Claude Code reads them.
      const switches = (): GlobSwitches => ({ hidden: globSwitch($.env.get('CLAUDE_CODE_GLOB_HIDDEN')), noIgnore: globSwitch($.env.get('CLAUDE_CODE_GLOB_NO_IGNORE')) })
      await registerTool($, { name: 'Glob', description: globDescription(switches()), input: globInput, isReadOnly: true, call: async (input, ctx) => globTool(input, ctx, { ...opts, ...switches(), additionalDirectories: await sessionDirectories($, opts.additionalDirectories), anywhere: confinementLifted($), denied: $.capability.use('permissions')?.deniedPaths('Glob') }) })
      publishToolOutput($, 'Glob', globOutputShape)
      return next(e)
    })
  },
})
