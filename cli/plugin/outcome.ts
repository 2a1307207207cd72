import type { Io } from '../io.js'
import type { Values } from '../command.js'
import { fail, ok } from './store.js'

type Fields = Record<string, unknown>

/**
 * How `install`, `uninstall`, `enable`, `disable`, `update` and `marketplace add` report, as
 * Claude Code's do: a `✔` line, or a `✘` line on stderr and exit 1. With `--json`, one line
 * `{ command, outcome, …fields, message, [failureCode,] …more }` on stdout instead of the `✔`
 * line; a failure still writes its `✘` line, so a person reading stderr sees it.
 */
export function outcomeOf(io: Io, values: Values, command: string) {
  const asJson = values.json === true
  const line = (json: Fields) => io.stdout.write(`${JSON.stringify(json)}\n`)
  return {
    ok(message: string, fields: Fields = {}, more: Fields = {}): number {
      if (!asJson) return ok(io, message)
      line({ command, outcome: 'ok', ...fields, message, ...more })
      return 0
    },
    /** `prefix` leads the `✘` line only (`Failed to install plugin "x": `); the JSON message is the reason alone. */
    failed(prefix: string, message: string, failureCode: string, fields: Fields = {}, more: Fields = {}): number {
      if (asJson) line({ command, outcome: 'failed', ...fields, message, failureCode, ...more })
      return fail(io, `${prefix}${message}`)
    },
  }
}
