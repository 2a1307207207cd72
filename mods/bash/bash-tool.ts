import { z } from 'zod'
import type { ToolContext, ToolOutput } from '../../core/tools/tool.js'
import { PROGRESS_INTERVAL_MS } from '../../core/tools/pipeline.js'
import { benignExit } from './exit-meaning.js'
import { runShell } from './run-shell.js'
import type { ShellSession } from './shell-session.js'
import { modelText } from './model-text.js'
import type { TaskRegistry } from '../_shared/tasks.js'
import { backgroundTaker, movedResult, startBackgroundTask } from './background-task.js'
import { askedTimeout } from './limits.js'
import { onFirstUse } from '../../core/on-first-use.js'
import { builtinInput } from '../_shared/builtin-input.js'

export const bashInput = builtinInput('Bash', () => z.object({
  command: z.string().min(1).describe('The command to run'),
  timeout: z.number().optional().meta({ exclusiveMinimum: 0 }).describe('Timeout in milliseconds (max 600000); with run_in_background, its time limit there (1800000 by default, up to 7200000)'),
  description: z.string().optional().describe('What the command does, in 5-10 words, e.g. "List files in current directory"'),
  run_in_background: z.boolean().optional().describe('Run it in the background and return at once; you are told when it ends'),
}))
export type BashInput = z.output<ReturnType<typeof bashInput>>
/**
 * What Bash takes where nothing runs in the background (CLAUDE_CODE_DISABLE_BACKGROUND_TASKS): a
 * run_in_background is refused as unknown. Built on first use: few sessions need it.
 */
export const foregroundBashInput = onFirstUse(() => bashInput().omit({ run_in_background: true }).extend({
  timeout: z.number().optional().meta({ exclusiveMinimum: 0 }).describe('Timeout in milliseconds (max 600000)'),
}))

export interface BashOptions {
  defaultTimeoutMs: number
  maxTimeoutMs: number
  maxOutputChars: number
  /** How long a command moved to the background at its timeout runs on there. */
  movedLimitMs: number
}

/** What the description says a session offers besides the limits. */
export interface BashOffer {
  /** BashOutput and KillShell are offered; else the output file and TaskStop serve. */
  shellTools: boolean
  /** A `cd` is forgotten after each command (CLAUDE_BASH_MAINTAIN_PROJECT_WORKING_DIR). */
  keepsDirectory?: boolean
  /** Nothing runs in the background (CLAUDE_CODE_DISABLE_BACKGROUND_TASKS). */
  foregroundOnly?: boolean
}

export const bashDescription = (o: BashOptions, { shellTools, keepsDirectory, foregroundOnly }: BashOffer) => `Runs a command with bash and returns its output.
- ${keepsDirectory
    ? 'Every call starts in the same working directory: a cd does not carry over to the next call; nor do environment variables.'
    : 'The working directory persists between calls after a command that succeeds (cd works, within the session\'s directories); environment variables do not.'}
- Quote paths that contain spaces: cd "/path/with spaces".
- Timeout: ${o.defaultTimeoutMs} ms by default, at most ${o.maxTimeoutMs} ms (timeout parameter). ${foregroundOnly
    ? 'A command still running at its timeout is stopped, with everything it started.'
    : 'A command still running at its timeout moves to the background, where you are told when it ends; a `sleep`, a command that runs git, or one that cannot be parsed is stopped instead, with everything it started.'}
- Output over ${o.maxOutputChars} characters is cut in the middle.
${foregroundOnly ? '- Processes a command leaves running are stopped when it ends.' : `- For long-running processes (servers, watchers) set run_in_background, then ${shellTools ? 'read output with BashOutput and stop it with KillShell' : 'read its output file with Read and stop it with TaskStop'}. In the background, timeout is how long it may run (default 1800000 ms, at most 7200000 ms); then it is stopped and you are told. Processes a foreground command leaves running are stopped when it ends.`}
- Prefer the dedicated tools: Glob to find files, Grep to search contents, Read to read files, Edit and Write to change them.
- Independent commands can go in one response as separate calls; dependent ones chain with &&.`

/**
 * `fullOutputPath`: where the uncut output is saved when what the model reads had to be cut.
 * `tasks`: the session's task registry, when the tasks mod runs: background commands are its tasks.
 * `at`: where the command starts, when the caller asked the shell already (asking twice would lose
 * the note of a directory that was gone, and cost a second stat once the shell has left the session's).
 */
export async function bashTool(input: BashInput, ctx: ToolContext, shell: ShellSession, options: BashOptions, fullOutputPath?: string, tasks?: TaskRegistry, at?: { cwd: string; note?: string }): Promise<ToolOutput> {
  const { cwd, note: cwdNote } = at ?? await shell.currentCwd()
  if (input.run_in_background && tasks) return startBackgroundTask(input, ctx, shell, tasks, cwd, cwdNote)
  if (input.run_in_background) {
    const bg = shell.background.start(input.command, cwd, shell.prelude(), fullOutputPath)
    const file = bg.outputPath ? ` Its whole output is also written to ${bg.outputPath}.` : ''
    return {
      result: { stdout: '', stderr: '', interrupted: false, isImage: false, backgroundTaskId: bg.id, ...(bg.outputPath ? { rawOutputPath: bg.outputPath } : {}) },
      text: `Started in the background with id ${bg.id}. Read its output with BashOutput, stop it with KillShell.${file}${cwdNote ? `\n${cwdNote}` : ''}`,
    }
  }
  const timeoutMs = Math.min(askedTimeout(input.timeout) ?? options.defaultTimeoutMs, options.maxTimeoutMs)
  // A heartbeat while the command runs: the caller's stream shows it still going (tool_progress).
  const beat = setInterval(() => ctx.progress({ command: input.command }), PROGRESS_INTERVAL_MS)
  beat.unref()
  // Past its timeout a command goes on in the background, where the session keeps a task registry.
  const taker = tasks ? backgroundTaker(input, shell, tasks) : undefined
  const run = await runShell(input.command, { cwd, timeoutMs, signal: ctx.signal, maxOutputChars: options.maxOutputChars, prelude: shell.prelude(), env: shell.env(), fullOutputPath, spare: shell.spare, ...(taker ? { takeOver: taker.take } : {}) }).finally(() => clearInterval(beat))
  const moved = taker?.moved()
  if (run.movedToBackground && moved) {
    const output = await movedResult(moved, input, ctx, shell, tasks!, { timeoutMs, limitMs: options.movedLimitMs }, { stdout: run.stdout.text(), stderr: run.stderr.text() })
    if (output) return cwdNote ? { ...output, text: `${output.text}\n${cwdNote}` } : output
  }
  const notes = cwdNote ? [cwdNote] : []
  // Only a command that succeeds moves the shell, as in Claude Code: after `cd build && make` fails,
  // the next command starts where this one did.
  if (run.exitCode === 0 && run.cwd && run.cwd !== cwd) {
    const refused = await shell.moveTo(run.cwd)
    if (refused) notes.push(refused)
  }

  const meaning = benignExit(input.command, run.exitCode)
  const interrupted = run.timedOut || run.aborted
  const failed = interrupted || (run.exitCode !== 0 && !meaning)
  if (run.timedOut) notes.push(`Command timed out after ${timeoutMs} ms and was stopped.`)
  else if (run.aborted) notes.push('Command was interrupted.')
  else if (run.exitCode === null) notes.push(`Command was killed by ${run.signal}.`)
  else if (meaning) notes.push(`Exit code ${run.exitCode} (${meaning})`)
  if (run.leftovers) notes.push('Processes the command left running in the background were stopped; use run_in_background for long-running processes.')
  // A failing exit code leads, as in Claude Code: read before the output, however long.
  const lead = !interrupted && run.exitCode && !meaning ? `Exit code ${run.exitCode}` : undefined

  const { text, rawOutputPath } = await modelText(run, notes, { cap: options.maxOutputChars, failed, lead })
  return {
    result: {
      stdout: run.stdout.text(), stderr: run.stderr.text(), interrupted, isImage: false, exitCode: run.exitCode,
      ...(rawOutputPath ? { rawOutputPath } : {}),
      ...(meaning ? { returnCodeInterpretation: meaning } : {}),
      ...(run.timedOut ? { timedOut: true } : {}),
    },
    text,
    isError: failed,
  }
}
