import { ModloopError } from '../core/errors.js'

/** Bad command-line usage: main prints the message and the usage, and exits 1, as Claude Code does. */
export function usageError(message: string): ModloopError {
  return new ModloopError('MODLOOP_ERR_USAGE', message, { stage: 'usage' })
}
