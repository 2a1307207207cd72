import type { DelegateShell, ToolDelegate } from '../_shared/tool-delegate.js'
import type { Editor } from './editor.js'

const DEFAULT_TIMEOUT_MS = 120_000
const MAX_TIMEOUT_MS = 600_000
const OUTPUT_BYTE_LIMIT = 30_000

/**
 * Bash in an editor terminal: the person watches the command run where they work. A call in the
 * background stays local (its output file, TaskStop and KillShell are local). It runs in Bash's shell:
 * the session's env and the hooks' env files, and a `cd` holds for the next call. The answer has
 * the local Bash's shape, with the terminal's combined output as stdout.
 */
export const editorBash = (run: Required<Pick<Editor, 'runInTerminal'>>['runInTerminal']): ToolDelegate => async (input, ctx, _dirs, shell) => {
  if (input.run_in_background === true || typeof input.command !== 'string') return undefined
  const timeoutMs = Math.min(typeof input.timeout === 'number' ? input.timeout : DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS)
  const wrapped = shell?.wrap(input.command)
  const out = await run({
    toolUseId: ctx.toolUseId, command: wrapped?.script ?? input.command, cwd: ctx.cwd, env: shell ? changedEnv(shell) : [],
    signal: ctx.signal, timeoutMs, outputByteLimit: OUTPUT_BYTE_LIMIT,
  })
  const moved = await wrapped?.done()
  const notes: string[] = []
  if (out.truncated) notes.push(`Only the last ${OUTPUT_BYTE_LIMIT} bytes of output were kept.`)
  if (out.timedOut) notes.push(`Command timed out after ${timeoutMs} ms and was stopped.`)
  else if (out.aborted) notes.push('Command was interrupted.')
  else if (out.exitCode === null && out.signal) notes.push(`Command was killed by ${out.signal}.`)
  else if (out.exitCode !== 0) notes.push(`Exit code ${out.exitCode}`)
  if (moved) notes.push(moved)
  const interrupted = out.timedOut || out.aborted
  const text = [out.output.replace(/\n$/, ''), ...notes].filter(Boolean).join('\n')
  return {
    result: { stdout: out.output, stderr: '', interrupted, isImage: false, exitCode: out.exitCode, ...(out.timedOut ? { timedOut: true } : {}) },
    text: text || '(Bash completed with no output)',
    isError: interrupted || out.exitCode !== 0,
  }
}

/** The session's variables the editor's terminal would lack: it starts from the editor's environment, which modloop's own came from. */
function changedEnv(shell: DelegateShell): { name: string; value: string }[] {
  return Object.entries(shell.env).flatMap(([name, value]) => (value !== undefined && process.env[name] !== value ? [{ name, value }] : []))
}
