import { join } from 'node:path'
import { defineMod } from '../../core/mod/define.js'
import { registerTool } from '../_shared/register-tool.js'
import { checklistOf } from '../_shared/checklist-gate.js'
import { modloopHome } from '../transcripts/store/paths.js'
import '../_shared/task-hooks.js'

/**
 * The task list: TaskCreate, TaskGet, TaskList and TaskUpdate, offered where the session's model
 * and environment call for them (`checklistOf`), as in Claude Code. The list lives on disk under
 * `<modloop home>/tasks/<list id>/`, the list id being `CLAUDE_CODE_TASK_LIST_ID` (sessions naming
 * one id share the list) or the session's id. A resumed session starts an empty list, as in Claude
 * Code: the tasks of the run it resumes are gone.
 */
export default defineMod({
  name: 'task-list',
  description: 'The TaskCreate, TaskGet, TaskList and TaskUpdate tools',
  uses: { taskHooks: 'optional' },
  register(on) {
    on('session.start', async ($, e, next) => {
      if (checklistOf($) === 'tasks') {
        // Loaded only where the list is offered: the newest models, by default, build none of its schemas.
        const [{ TaskStore }, { taskTools }] = await Promise.all([import('./store.js'), import('./tools.js')])
        const env = $.env.all()
        const named = $.env.get('CLAUDE_CODE_TASK_LIST_ID')
        const listId = (named || $.session.id()).replace(/[^A-Za-z0-9_.-]/g, '-')
        const store = new TaskStore(join(modloopHome(env), 'tasks', listId), !named && e.resumedFrom !== undefined)
        const hook = $.capability.use('taskHooks')
        for (const tool of taskTools(store, hook && ((req) => hook({ ...req, sessionId: $.session.id() })))) await registerTool($, tool)
      }
      return next(e)
    })
  },
})
