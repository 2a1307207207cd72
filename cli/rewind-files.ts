import type { QueryOptions } from '../runtime/options.js'
import type { CommandRun } from './command.js'
import { describeError } from '../core/errors.js'

/**
 * `-p --resume <id> --rewind-files <user message id>`: a standalone operation, as in Claude Code.
 * It opens the session without taking a turn, restores the files its checkpoints kept as they were
 * before that prompt, and says so; exit 1 with the reason when that cannot be done.
 */
export async function rewindFilesOnly(messageId: string, prompt: string, options: QueryOptions, io: Parameters<CommandRun>[0]['io']): Promise<number> {
  const fail = (why: string) => (io.stderr.write(`modloop: --rewind-files: ${why}\n`), 1)
  if (options.resume === undefined && options.continue !== true) return fail('it rewinds a session: give it with --resume <session id>')
  if (prompt.trim()) return fail('it is an operation of its own and takes no prompt')
  const { query } = await import('../entry.js')
  // Nothing is sent: the session opens for the control alone, and closes without a turn.
  const q = query({ prompt: (async function* () {})(), options: { ...options, enableFileCheckpointing: true } })
  try {
    await q.rewindFiles(messageId)
    io.stdout.write(`Files rewound to state at message ${messageId}\n`)
    return 0
  } catch (err) {
    return fail(describeError(err))
  } finally {
    await q.close()
  }
}
