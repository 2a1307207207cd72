import { join } from 'node:path'
import { defineMod } from '../../core/mod/define.js'
import { registerTool } from '../_shared/register-tool.js'
import { checklistOf } from '../_shared/checklist-gate.js'
import { modloopHome } from '../transcripts/store/paths.js'
import '../_shared/task-hooks.js'
import { TaskStore } from './store.js'
import { taskTools } from './tools.js'

/**
 * The task list: TaskCreate, TaskGet, TaskList and TaskUpdate, offered where the session's model
 * and environment call for them (`checklistOf`), as in Claude Code. The list lives on disk under
 * `<modloop home>/tasks/<list id>/`, the list id being `CLAUDE_CODE_TASK_LIST_ID` or the session's
 * id, so a resumed session finds its list and sessions naming one id share it.
 */
export default defineMod({
  name: 'task-list',
  description: 'The TaskCreate, TaskGet, TaskList and TaskUpdate tools',
  uses: { taskHooks: 'optional' },
  register(on) {
    on('session.start', async ($, e, next) => {
      if (checklistOf($) === 'tasks') {
        const env = $.env.all()
        const listId = $.env.get('CLAUDE_CODE_TASK_LIST_ID') || (e.resumedFrom?.sessionId ?? $.session.id())
        const store = new TaskStore(join(modloopHome(env), 'tasks', listId.replace(/[^A-Za-z0-9_.-]/g, '-')))
        const hook = $.capability.use('taskHooks')
        for (const tool of taskTools(store, hook && ((req) => hook({ ...req, sessionId: $.session.id() })))) await registerTool($, tool)
      }
      return next(e)
    })
  },
})
