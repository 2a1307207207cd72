import { z } from 'zod'
import type { ToolOutput } from '../../core/tools/tool.js'
import { failure } from '../_shared/register-tool.js'
import type { TaskRegistry } from '../_shared/tasks.js'
import { builtinInput } from '../_shared/builtin-input.js'

export const taskStopInput = builtinInput('TaskStop', () => z.object({
  task_id: z.string().optional().describe('Which task to end: a shell\'s bash_N, or a subagent\'s agent id'),
  shell_id: z.string().optional().describe('Deprecated: use task_id'),
}))

export const TASK_STOP_DESCRIPTION = `Ends a background task that is still running, named by its id: a shell Bash started with run_in_background, or a background subagent, with everything it started.
- Its end is not reported to you again: this result says it stopped.`

/**
 * TaskStop, Claude Code's tool for stopping background work: any task of the session's registry.
 * Stopped at the model's word, the task ends `stopped` on the stream, and no notification turn
 * tells the model what it already knows (as KillShell).
 */
export async function taskStopTool(input: z.output<ReturnType<typeof taskStopInput>>, registry: TaskRegistry | undefined): Promise<ToolOutput> {
  const id = input.task_id ?? input.shell_id
  if (id === undefined) return failure('Missing required parameter: task_id')
  const record = registry?.get(id)
  if (!record) return failure(`No task found with ID: ${id}`)
  if (record.status !== 'running') return failure(`Task ${id} is not running (${record.status}).`)
  await registry!.stop(id, { quiet: true })
  const message = `Stopped task ${id} (${record.description})`
  return { result: { message, task_id: id, task_type: record.type }, text: message }
}
