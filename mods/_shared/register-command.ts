import type { ModApi } from '../../core/mod/api.js'
import { describeError } from '../../core/errors.js'

export type CommandSpec = Parameters<ModApi['command']['register']>[0]

/**
 * Registers a session's slash commands. One that cannot be registered (its name taken by another
 * mod's, say) is a warning naming it: the session and the mod's other commands go on without it.
 */
export async function registerCommands($: ModApi, specs: readonly CommandSpec[], warn: (line: string) => void = (line) => $.log.warn(line)): Promise<void> {
  for (const spec of specs) {
    try {
      await $.command.register(spec)
    } catch (err) {
      warn(`/${spec.name} was not registered: ${describeError(err)}`)
    }
  }
}
