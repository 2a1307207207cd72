import type { TextBlockParam } from '@anthropic-ai/sdk/resources/messages'
import type { UserShellRun } from '../_shared/user-shell.js'
import type { BashOptions } from './bash-tool.js'
import { modelText } from './model-text.js'
import { runShell } from './run-shell.js'
import type { ShellSession } from './shell-session.js'

/**
 * The user message a `!` command becomes, as Claude Code sends it: the command, then its output
 * (both streams share one pipe) as stdout when it succeeded, as stderr when it failed; notes about
 * the shell (a directory reset) follow in stderr.
 */
export function bashModeBlocks(command: string, o: { text: string; failed: boolean; notes: readonly string[] }): TextBlockParam[] {
  const notes = o.notes.map((n) => `\n${n}`).join('')
  const [stdout, stderr] = o.failed ? ['', o.text] : [o.text, '']
  return [
    { type: 'text', text: `<bash-input>${command}</bash-input>\n` },
    { type: 'text', text: `<bash-stdout>${stdout}</bash-stdout><bash-stderr>${stderr}${notes}</bash-stderr>` },
  ]
}

/**
 * Runs the person's own command as Bash runs the model's (process group, timeout, output cap, the
 * whole output saved when cut, `cd` kept when it succeeds), and answers what the model is told.
 */
export async function runBashMode(command: string, shell: ShellSession, limits: BashOptions, signal: AbortSignal, fullOutputPath: string): Promise<UserShellRun> {
  const { cwd, note } = await shell.currentCwd()
  const run = await runShell(command, { cwd, timeoutMs: limits.defaultTimeoutMs, signal, maxOutputChars: limits.maxOutputChars, prelude: shell.prelude(), env: shell.env(), fullOutputPath })
  const output = run.stdout.text() + run.stderr.text()
  if (run.aborted) return { blocks: [], output, aborted: true }
  const notes = note ? [note] : []
  if (run.exitCode === 0 && run.cwd && run.cwd !== cwd) {
    const refused = await shell.moveTo(run.cwd)
    if (refused) notes.push(refused)
  }
  if (run.timedOut) notes.push(`Command timed out after ${limits.defaultTimeoutMs} ms and was stopped.`)
  const failed = run.exitCode !== 0
  const { text } = await modelText(run, [], { cap: limits.maxOutputChars, failed })
  return { blocks: bashModeBlocks(command, { text, failed, notes }), output, aborted: false }
}
