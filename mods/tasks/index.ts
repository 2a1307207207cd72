import { z } from 'zod'
import { defineMod } from '../../core/mod/define.js'
import { sessionDirOf } from '../transcripts/store/paths.js'
import { sessionPath } from '../_shared/session-dir.js'
import '../_shared/tasks.js'
import { reportedTaskIds, staleNote } from './notification.js'
import { SessionTaskRegistry } from './registry.js'
import { stopStale, tasksDirOf } from './task-files.js'
import { registerTool } from '../_shared/register-tool.js'
import { TASK_STOP_DESCRIPTION, taskStopInput, taskStopTool } from './task-stop.js'
import { builtinOptions } from '../_shared/builtin-options.js'
import { registerCommands } from '../_shared/register-command.js'
import { tasksCommand } from './tasks-command.js'

const options = builtinOptions('tasks', () => z.object({
  /** How many tasks may run in the background at once (subagents and shells together). */
  maxConcurrent: z.number().int().min(1).default(4),
}))

/**
 * The task registry: the subagents and background shells of a session, with their ids, status,
 * output files and times, under `<session dir>/tasks/`. The Agent and Bash tools run their work
 * through it (the `tasks` capability), so the stream's task messages, the cap on background
 * work, Query.stopTask and the model's TaskStop cover both. A resumed session finds the tasks its previous process
 * left running: they are marked stopped, and the model is told with its next prompt.
 */
export default defineMod({
  name: 'tasks',
  description: 'The task registry: subagents and background shells, their status, output files and cap',
  options,
  provides: ['tasks'],
  uses: { transcriptFile: 'optional' },
  register(on, opts, $) {
    const registries = new Map<string, SessionTaskRegistry>()
    $.capability.provide('tasks', (sessionId) => registries.get(sessionId))
    // What the model is told, with its next prompt, of tasks a previous process left running.
    const notes = new Map<string, string>()

    on('session.start', async ($, e, next) => {
      const dir = tasksDirOf(sessionDirOf(sessionPath($)))
      const registry = new SessionTaskRegistry($, dir, opts.maxConcurrent)
      registries.set(e.sessionId, registry)
      await registerTool($, { name: 'TaskStop', description: TASK_STOP_DESCRIPTION, input: taskStopInput, isReadOnly: false, call: (input) => taskStopTool(input, registry) })
      await registerCommands($, [{ name: 'tasks', description: 'List the shells and subagents of this session, running and finished (also /bashes); /tasks stop <id> stops one', argumentHint: '[stop <id>]', kind: 'local' }])
      if (e.resumedFrom) {
        const stale = await stopStale(tasksDirOf(sessionDirOf(e.resumedFrom.transcriptPath)), (m) => $.log.warn(m))
        if (stale.length > 0) {
          notes.set(e.sessionId, staleNote(stale))
          $.session.append({ message: { type: 'system', subtype: 'informational', level: 'warning', content: `${stale.length} background task${stale.length === 1 ? '' : 's'} of this session (${stale.map((r) => r.id).join(', ')}) ended with the previous process and ${stale.length === 1 ? 'was' : 'were'} marked stopped` } })
        }
      }
      return next(e)
    })

    // `/bashes` is Claude Code's other name for it, answered here rather than listed twice.
    on('command.run', async ($, e, next) => {
      if (e.command !== 'tasks' && e.command !== 'bashes') return next(e)
      return { output: await tasksCommand(registries.get($.session.id() as string), e.args, $.clock.now()) }
    })

    on('prompt.submit', ($, e, next) => {
      const id = $.session.id() as string
      const note = notes.get(id)
      if (note === undefined) return next(e)
      notes.delete(id)
      return next({ ...e, context: [...(e.context ?? []), note] })
    })

    // The model has heard of a task once its report is in the history, in a turn of its own or
    // beside a running turn's tool results; a session that ends before then marks it untold.
    on('session.message', ($, e, next) => {
      const registry = registries.get($.session.id() as string)
      if (registry?.untold && e.message.type === 'user') for (const id of reportedTaskIds(e.message.message.content)) registry.told(id)
      return next(e)
    })

    on('session.end', async ($, e, next) => {
      const registry = registries.get(e.sessionId)
      registries.delete(e.sessionId)
      notes.delete(e.sessionId)
      await registry?.stopAll()
      return next(e)
    })

    return async () => {
      await Promise.all([...registries.values()].map((r) => r.stopAll()))
      registries.clear()
    }
  },
})
