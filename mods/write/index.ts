import { defineMod } from '../../core/mod/define.js'
import { absolutePathField } from '../_shared/absolute-path.js'
import { allowedDirsOptions, confinementLifted, sessionDirectories } from '../_shared/allowed-paths.js'
import { forgetSession } from '../_shared/read-state.js'
import { registerTool } from '../_shared/register-tool.js'
import { delegated } from '../_shared/tool-delegate.js'
import { unreadCheck } from '../_shared/unread-change.js'
import { WRITE_DESCRIPTION, writeInput, writeTool } from './write-file.js'
import { coerceWriteInput } from './write-input-shape.js'
import { builtinOptions } from '../_shared/builtin-options.js'

/** Write: creates or replaces a file, only over a file read in this session and unchanged since. */
export default defineMod({
  name: 'write',
  description: 'The Write tool',
  options: builtinOptions('write', allowedDirsOptions),
  uses: { permissions: 'optional', shellCwd: 'optional' },
  register(on, opts) {
    on('session.start', async ($, e, next) => {
      await registerTool($, { name: 'Write', description: WRITE_DESCRIPTION, input: writeInput, isReadOnly: false, coerceInput: coerceWriteInput, resolveInput: absolutePathField('file_path', $), call: async (input, ctx) => {
        const dirs = await sessionDirectories($, opts.additionalDirectories)
        return (await delegated('Write', input, ctx, dirs)) ?? writeTool(input, ctx, dirs, confinementLifted($), unreadCheck($))
      } })
      return next(e)
    })
    on('session.end', ($, e, next) => {
      forgetSession(e.sessionId)
      return next(e)
    })
  },
})
