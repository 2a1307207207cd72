import { z } from 'zod'
import type { ToolOutput } from '../../core/tools/tool.js'
import { failure } from '../_shared/register-tool.js'
import type { BackgroundShell } from './background-shells.js'
import { capText } from './capped-text.js'
import type { ShellSession } from './shell-session.js'
import type { TaskRegistry } from '../_shared/tasks.js'
import { describeError } from '../../core/errors.js'
import { builtinInput } from '../_shared/builtin-input.js'

export const bashOutputInput = builtinInput('BashOutput', () => z.object({
  bash_id: z.string().describe('The id of the background shell (e.g. bash_1)'),
  filter: z.string().optional().describe('A regular expression: only output lines matching it are returned; the others are discarded'),
}))
export const killShellInput = builtinInput('KillShell', () => z.object({
  shell_id: z.string().describe('The id of the background shell to stop'),
}))

export const BASH_OUTPUT_DESCRIPTION = `Reads the output a background shell (started by Bash with run_in_background) produced since the last read, and its status.
- Each call returns only new output.
- filter keeps only the lines matching a regular expression; the other lines are discarded.`

export const KILL_SHELL_DESCRIPTION = 'Stops a background shell started by Bash with run_in_background, with everything it started.'

const unknown = (shell: ShellSession, id: string) => {
  const known = shell.background.ids()
  return failure(`No background shell with id ${id}.${known.length ? ` Known shells: ${known.join(', ')}.` : ' None was started in this session.'}`)
}

/** New output of one stream, capped; `cut` when some of it is not in the text. */
function take(stream: BackgroundShell['stdout'], cap: number, filter?: RegExp): { text: string; cut: boolean } {
  const { text, dropped } = stream.take()
  const kept = filter ? text.split('\n').filter((l) => filter.test(l)).join('\n') : text
  return { text: (dropped > 0 ? `[${dropped} earlier characters were dropped]\n` : '') + capText(kept, cap), cut: dropped > 0 || kept.length > cap }
}

export function bashOutputTool(input: z.output<ReturnType<typeof bashOutputInput>>, shell: ShellSession, maxOutputChars: number): ToolOutput {
  const bg = shell.background.get(input.bash_id)
  if (!bg) return unknown(shell, input.bash_id)
  let filter: RegExp | undefined
  if (input.filter !== undefined) {
    try {
      filter = new RegExp(input.filter)
    } catch (err) {
      return failure(`The filter "${input.filter}" is not a valid regular expression: ${describeError(err)}`)
    }
  }
  const out = take(bg.stdout, maxOutputChars, filter)
  const err = take(bg.stderr, maxOutputChars, filter)
  const stdout = out.text
  const stderr = err.text
  const lines = (s: string) => (s === '' ? 0 : s.replace(/\n$/, '').split('\n').length)
  const timestamp = new Date().toISOString()
  const result = {
    shellId: bg.id, command: bg.command, status: bg.status, exitCode: bg.exitCode, stdout, stderr,
    stdoutLines: lines(stdout), stderrLines: lines(stderr), timestamp, ...(input.filter !== undefined ? { filterPattern: input.filter } : {}),
  }
  const parts = [`<status>${bg.status}</status>`]
  if (bg.exitCode !== null) parts.push(`<exit_code>${bg.exitCode}</exit_code>`)
  if (stdout) parts.push(`<stdout>\n${stdout.replace(/\n$/, '')}\n</stdout>`)
  if (stderr) parts.push(`<stderr>\n${stderr.replace(/\n$/, '')}\n</stderr>`)
  if (!stdout && !stderr) parts.push('(no new output)')
  if ((out.cut || err.cut) && bg.outputPath) parts.push(`(Not all of the new output is shown: the whole output is in ${bg.outputPath})`)
  parts.push(`<timestamp>${timestamp}</timestamp>`)
  return { result, text: parts.join('\n') }
}

/**
 * `tasks`: the session's task registry, when the shell is one of its tasks: stopped there, it ends
 * `stopped` on the stream; the model asked for it, so no notification turn tells it again.
 */
export async function killShellTool(input: z.output<ReturnType<typeof killShellInput>>, shell: ShellSession, tasks?: TaskRegistry): Promise<ToolOutput> {
  const bg = shell.background.get(input.shell_id)
  if (!bg) return unknown(shell, input.shell_id)
  if (bg.status !== 'running') return failure(`Shell ${bg.id} is not running (${bg.status}${bg.exitCode !== null ? `, exit code ${bg.exitCode}` : ''}).`)
  if (!(await tasks?.stop(bg.id, { quiet: true }))) await shell.background.kill(bg)
  const message = `Stopped shell ${bg.id} (${bg.command})`
  return { result: { message, shell_id: bg.id }, text: message }
}
