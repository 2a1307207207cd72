import type { ChildProcess } from 'node:child_process'
import { failure } from '../_shared/register-tool.js'
import type { TaskOutcome, TaskRegistry } from '../_shared/tasks.js'
import type { ToolContext, ToolOutput } from '../../core/tools/tool.js'
import { splitCommand } from '../permissions/bash-split.js'
import type { BackgroundShell } from './background-shells.js'
import type { BashInput } from './bash-tool.js'
import type { ShellSession } from './shell-session.js'
import { askedTimeout, BACKGROUND_DEFAULT_MS, BACKGROUND_MAX_MS } from './limits.js'

/**
 * A background shell as a task of the session's registry: it counts toward the cap on background
 * work, the stream announces it (task_started … task_notification), Query.stopTask and TaskStop
 * (or KillShell, where offered) stop it, and when it ends its exit comes back to the model as a turn of its own. Its output goes
 * to the task's output file. One the main conversation started keeps the session's stream open,
 * as a background subagent does and as in Claude Code: `-p` waits for it (within --max-wait-tasks)
 * and runs its notification turn, so a build or a test run the model started is reported, not
 * cut off with the turn. A subagent's shell ends with that subagent, so it holds nothing.
 */
export async function startBackgroundTask(input: BashInput, ctx: ToolContext, shell: ShellSession, registry: TaskRegistry, cwd: string, cwdNote?: string): Promise<ToolOutput> {
  const refused = registry.refusal()
  if (refused) return failure(refused)
  const bg = shell.background.start(input.command, cwd, shell.prelude(), (id) => registry.outputFileFor(id))
  // Its `timeout` bounds its time in the background, as in Claude Code: a forgotten server or a
  // hung test run is stopped (and the model told) instead of running as long as the session.
  const limitMs = Math.min(askedTimeout(input.timeout) ?? BACKGROUND_DEFAULT_MS, BACKGROUND_MAX_MS)
  const launched = await launchShellTask(bg, input, ctx, shell, registry, limitMs)
  if (launched) return failure(launched)
  const file = bg.outputPath ? ` Output is being written to: ${bg.outputPath}.` : ''
  return {
    result: { stdout: '', stderr: '', interrupted: false, isImage: false, backgroundTaskId: bg.id, ...(bg.outputPath ? { rawOutputPath: bg.outputPath } : {}) },
    text: `Command running in background with ID: ${bg.id}.${file} You will be notified when it completes. To check interim output, use Read on that file path.${cwdNote ? `\n${cwdNote}` : ''}`,
  }
}

/**
 * Whether a command past its timeout moves to the background rather than being stopped (spec
 * loop-and-sdk §7, Bash): not a `sleep`, whose waiting is the point; not one that runs git, which
 * may hold the repository's lock; not a line that cannot be read with confidence.
 */
export function movesToBackground(command: string): boolean {
  const { parts, balanced } = splitCommand(command)
  if (!balanced) return false
  const program = (p: (typeof parts)[number]) => p.argv[0]?.split('/').at(-1)
  return program(parts[0]!) !== 'sleep' && !parts.some((p) => program(p) === 'git')
}

/**
 * The taker Bash gives runShell for a command past its timeout: when the command may move (read
 * then, not on every call: parsing the line costs a round for nothing in all but the rare timeout)
 * and the registry has room, it goes on as a background shell (`moved`), else it is stopped as before.
 */
export function backgroundTaker(input: BashInput, shell: ShellSession, registry: TaskRegistry): { take: (child: ChildProcess, soFar: () => string) => boolean; moved: () => BackgroundShell | undefined } {
  let moved: BackgroundShell | undefined
  return {
    take: (child, soFar) => {
      if (!movesToBackground(input.command) || registry.refusal()) return false
      moved = shell.background.adopt(child, input.command, soFar(), (id) => registry.outputFileFor(id))
      return true
    },
    moved: () => moved,
  }
}

/** The result of a command moved to the background at its timeout: its output so far, then where it went. */
export async function movedResult(bg: BackgroundShell, input: BashInput, ctx: ToolContext, shell: ShellSession, registry: TaskRegistry, { timeoutMs, limitMs }: { timeoutMs: number; limitMs: number }, soFar: { stdout: string; stderr: string }): Promise<ToolOutput | undefined> {
  // Only a launch that raced the registry's last free place is refused here; the shell is ended then.
  if (await launchShellTask(bg, input, ctx, shell, registry, limitMs)) return undefined
  const file = bg.outputPath ? ` Output is being written to: ${bg.outputPath}.` : ''
  const note = `Command did not complete within its ${duration(timeoutMs)} timeout and was moved to the background (ID: ${bg.id}).${file} You will be notified when it completes. ` +
    `If it is still running after ${duration(limitMs)} in the background, it will be stopped and you will be notified. It is running now: do not start a second copy while it runs. ` +
    'If it is no longer needed, stop it with TaskStop. To check interim output, use Read on that file path.'
  const shown = [soFar.stdout.replace(/\n+$/, ''), soFar.stderr.replace(/\n+$/, '')].filter(Boolean).join('\n')
  return {
    result: { ...soFar, interrupted: false, isImage: false, backgroundTaskId: bg.id, ...(bg.outputPath ? { rawOutputPath: bg.outputPath } : {}) },
    text: shown ? `${shown}\n${note}` : note,
  }
}

/** Registers a running shell with the registry; the refusal's text when it has no room. */
async function launchShellTask(bg: BackgroundShell, input: BashInput, ctx: ToolContext, shell: ShellSession, registry: TaskRegistry, limitMs?: number): Promise<string | undefined> {
  const description = input.description ?? input.command
  const launched = await registry.launch({
    id: bg.id, type: 'local_bash', description, command: input.command, background: true, toolUseId: ctx.toolUseId,
    ...(ctx.agentId ? { startedBy: ctx.agentId } : { holdsSession: true }),
    run: async (task) => {
      let overLimit = false
      const kill = () => void shell.background.kill(bg)
      const limit = limitMs === undefined ? undefined : setTimeout(() => { overLimit = true; kill() }, limitMs)
      task.signal.addEventListener('abort', kill, { once: true })
      if (task.signal.aborted) kill()
      await bg.exited
      clearTimeout(limit)
      task.signal.removeEventListener('abort', kill)
      if (overLimit) {
        return {
          status: 'stopped', summary: `Background command "${description}" was stopped after ${duration(limitMs!)} in the background`,
          result: `It reached its time limit in the background. If the work still needs it, run it again with run_in_background and a longer timeout (at most ${BACKGROUND_MAX_MS} ms); either way, report that it was stopped.`,
        }
      }
      return outcomeOf(bg, description)
    },
  })
  if (!('refused' in launched)) return undefined
  await shell.background.kill(bg)
  return launched.refused
}

function outcomeOf(bg: BackgroundShell, description: string): TaskOutcome {
  const code = bg.exitCode
  if (bg.status === 'completed') return { status: 'completed', summary: `Background command "${description}" completed (exit code 0)` }
  const how = code === null ? 'ended without an exit code (killed by a signal)' : `failed with exit code ${code}`
  return { status: 'failed', summary: `Background command "${description}" ${how}`, error: how }
}

/** `1s`, `90s`, `2m`, `10m` as Claude Code words a timeout; `300ms` below a second. */
function duration(ms: number): string {
  if (ms < 1000) return `${ms}ms`
  const s = Math.round(ms / 1000)
  return s >= 60 && s % 60 === 0 ? `${s / 60}m` : `${s}s`
}
