import { z } from 'zod'
import { defineMod } from '../../core/mod/define.js'
import { absolutePathField } from '../_shared/absolute-path.js'
import { allowedDirsOptions, confinementLifted, sessionDirectories } from '../_shared/allowed-paths.js'
import { forgetSession } from '../_shared/read-state.js'
import { registerTool } from '../_shared/register-tool.js'
import { delegated } from '../_shared/tool-delegate.js'
import { unreadCheck } from '../_shared/unread-change.js'
import { EDIT_DESCRIPTION, editInput, editTool } from './edit-file.js'
import { coerceEditInput } from './edit-input-shape.js'
import { NOTEBOOK_EDIT_DESCRIPTION, notebookEditInput, notebookEditTool } from './notebook-edit.js'
import { builtinOptions } from '../_shared/builtin-options.js'

/**
 * Edit: exact string replacement in a file read in this session, written back atomically; and
 * NotebookEdit: one cell of a Jupyter notebook replaced, inserted or deleted, under the same rules.
 */
export default defineMod({
  name: 'edit',
  description: 'The Edit and NotebookEdit tools',
  options: builtinOptions('edit', () => allowedDirsOptions().extend({
    /** Offer NotebookEdit beside Edit (Claude Code's minimal mode offers Edit alone). */
    notebook: z.boolean().default(true),
  })),
  uses: { permissions: 'optional', shellCwd: 'optional' },
  register(on, opts) {
    on('session.start', async ($, e, next) => {
      await registerTool($, { name: 'Edit', description: EDIT_DESCRIPTION, input: editInput, isReadOnly: false, coerceInput: coerceEditInput, resolveInput: absolutePathField('file_path', $), call: async (input, ctx) => {
        const dirs = await sessionDirectories($, opts.additionalDirectories)
        return (await delegated('Edit', input, ctx, dirs)) ?? editTool(input, ctx, dirs, confinementLifted($), unreadCheck($))
      } })
      if (opts.notebook) await registerTool($, { name: 'NotebookEdit', description: NOTEBOOK_EDIT_DESCRIPTION, input: notebookEditInput, isReadOnly: false, resolveInput: absolutePathField('notebook_path', $), call: async (input, ctx) =>
        notebookEditTool(input, ctx, await sessionDirectories($, opts.additionalDirectories), confinementLifted($)) })
      return next(e)
    })
    on('session.end', ($, e, next) => {
      forgetSession(e.sessionId)
      return next(e)
    })
  },
})
