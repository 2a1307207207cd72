import type { ToolDelegate } from '../_shared/tool-delegate.js'
import type { Editor } from './editor.js'

const DEFAULT_TIMEOUT_MS = 120_000
const MAX_TIMEOUT_MS = 600_000
const OUTPUT_BYTE_LIMIT = 30_000

/**
 * Bash in an editor terminal: the person watches the command run where they work. A call in the
 * background stays local (BashOutput and KillShell read local shells). The answer has the local
 * Bash's shape, with the terminal's combined output as stdout.
 */
export const editorBash = (run: Required<Pick<Editor, 'runInTerminal'>>['runInTerminal']): ToolDelegate => async (input, ctx) => {
  if (input.run_in_background === true || typeof input.command !== 'string') return undefined
  const timeoutMs = Math.min(typeof input.timeout === 'number' ? input.timeout : DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS)
  const out = await run({ toolUseId: ctx.toolUseId, command: input.command, cwd: ctx.cwd, signal: ctx.signal, timeoutMs, outputByteLimit: OUTPUT_BYTE_LIMIT })
  const notes: string[] = []
  if (out.truncated) notes.push(`Only the last ${OUTPUT_BYTE_LIMIT} bytes of output were kept.`)
  if (out.timedOut) notes.push(`Command timed out after ${timeoutMs} ms and was stopped.`)
  else if (out.aborted) notes.push('Command was interrupted.')
  else if (out.exitCode === null && out.signal) notes.push(`Command was killed by ${out.signal}.`)
  else if (out.exitCode !== 0) notes.push(`Exit code ${out.exitCode}`)
  const interrupted = out.timedOut || out.aborted
  const text = [out.output.replace(/\n$/, ''), ...notes].filter(Boolean).join('\n')
  return {
    result: { stdout: out.output, stderr: '', interrupted, isImage: false, exitCode: out.exitCode, ...(out.timedOut ? { timedOut: true } : {}) },
    text: text || '(no output)',
    isError: interrupted || out.exitCode !== 0,
  }
}
