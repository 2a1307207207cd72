import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { usageError } from './usage-error.js'
import { describeError } from '../core/errors.js'

/**
 * A flag's JSON value: the text itself when it starts with `{`, else a file resolved from `cwd`.
 * `where` names it for the caller's own messages; a file that cannot be read or text that is not
 * JSON is a usage error naming the flag and the file.
 */
export function readJsonArg(flag: string, value: string, cwd: string): { json: unknown; where: string } {
  const inline = value.trimStart().startsWith('{')
  const where = inline ? `the JSON given to ${flag}` : resolve(cwd, value)
  let text = value
  if (!inline) {
    try {
      text = readFileSync(where, 'utf8')
    } catch (err) {
      throw usageError(`${flag}: ${where} cannot be read (${(err as NodeJS.ErrnoException).code ?? describeError(err)})`)
    }
  }
  try {
    // A file saved with a byte order mark is still JSON to the settings and config readers.
    return { json: JSON.parse(text.replace(/^\uFEFF/, '')), where }
  } catch (err) {
    throw usageError(`${flag}: ${where} is not valid JSON (${describeError(err)})`)
  }
}
