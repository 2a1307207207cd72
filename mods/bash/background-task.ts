import { failure } from '../_shared/register-tool.js'
import type { TaskOutcome, TaskRegistry } from '../_shared/tasks.js'
import type { ToolContext, ToolOutput } from '../../core/tools/tool.js'
import type { BackgroundShell } from './background-shells.js'
import type { BashInput } from './bash-tool.js'
import type { ShellSession } from './shell-session.js'

/**
 * A background shell as a task of the session's registry: it counts toward the cap on background
 * work, the stream announces it (task_started … task_notification), Query.stopTask and KillShell
 * stop it, and when it ends its exit comes back to the model as a turn of its own. Its output goes
 * to the task's output file. One the main conversation started keeps the session's stream open,
 * as a background subagent does and as in Claude Code: `-p` waits for it (within --max-wait-tasks)
 * and runs its notification turn, so a build or a test run the model started is reported, not
 * cut off with the turn. A subagent's shell ends with that subagent, so it holds nothing.
 */
export async function startBackgroundTask(input: BashInput, ctx: ToolContext, shell: ShellSession, registry: TaskRegistry, cwd: string, cwdNote?: string): Promise<ToolOutput> {
  const refused = registry.refusal()
  if (refused) return failure(refused)
  const bg = shell.background.start(input.command, cwd, shell.prelude(), (id) => registry.outputFileFor(id))
  const description = input.description ?? input.command
  const launched = await registry.launch({
    id: bg.id, type: 'local_bash', description, command: input.command, background: true, toolUseId: ctx.toolUseId,
    ...(ctx.agentId ? { startedBy: ctx.agentId } : { holdsSession: true }),
    run: async (task) => {
      const kill = () => void shell.background.kill(bg)
      task.signal.addEventListener('abort', kill, { once: true })
      if (task.signal.aborted) kill()
      await bg.exited
      task.signal.removeEventListener('abort', kill)
      return outcomeOf(bg, description)
    },
  })
  if ('refused' in launched) {
    await shell.background.kill(bg)
    return failure(launched.refused)
  }
  const file = bg.outputPath ? ` Output is being written to: ${bg.outputPath}.` : ''
  return {
    result: { stdout: '', stderr: '', interrupted: false, isImage: false, backgroundTaskId: bg.id, ...(bg.outputPath ? { rawOutputPath: bg.outputPath } : {}) },
    text: `Command running in background with ID: ${bg.id}.${file} Read its output with BashOutput and stop it with KillShell; you will be told when it ends.${cwdNote ? `\n${cwdNote}` : ''}`,
  }
}

function outcomeOf(bg: BackgroundShell, description: string): TaskOutcome {
  const code = bg.exitCode
  if (bg.status === 'completed') return { status: 'completed', summary: `Background command "${description}" completed (exit code 0)` }
  const how = code === null ? 'ended without an exit code (killed by a signal)' : `failed with exit code ${code}`
  return { status: 'failed', summary: `Background command "${description}" ${how}`, error: how }
}
