import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import type { QueryOptions } from '../runtime/options.js'
import type { Values } from './command.js'
import { str } from './flag-values.js'
import { usageError } from './usage-error.js'

/**
 * `--system-prompt[-file]` and `--append-system-prompt[-file]`: the text of each pair, from the flag
 * or from the file it names (resolved from the directory modloop was started in, as a shell path
 * is). Either form of one pair may be given, not both, as in Claude Code; an append combines with
 * either replacement. A file is read now, whole and as it is, so a missing one stops the launch
 * before anything starts, with Claude Code's words.
 */
export function systemPromptFlags(values: Values, cwd: string): Pick<QueryOptions, 'systemPrompt' | 'appendSystemPrompt'> {
  return {
    systemPrompt: textOrFile(values, cwd, 'system-prompt', 'System prompt'),
    appendSystemPrompt: textOrFile(values, cwd, 'append-system-prompt', 'Append system prompt'),
  }
}

/** Whether the default system prompt is replaced, by the text or by a file. */
export function replacesSystemPrompt(values: Values): boolean {
  return values['system-prompt'] !== undefined || values['system-prompt-file'] !== undefined
}

function textOrFile(values: Values, cwd: string, flag: 'system-prompt' | 'append-system-prompt', what: string): string | undefined {
  const text = str(values, flag)
  const file = str(values, `${flag}-file`)
  if (file === undefined) return text
  if (text !== undefined) throw usageError(`Cannot use both --${flag} and --${flag}-file. Please use only one.`)
  const path = resolve(cwd, file)
  try {
    return readFileSync(path, 'utf8')
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'ENOENT') throw usageError(`${what} file not found: ${path}`)
    throw usageError(`Error reading ${what.toLowerCase()} file ${path}: ${code ?? String(err)}`)
  }
}
