import { join } from 'node:path'
import type { On } from '../../core/bus/types.js'
import type { SessionMemory } from './session-memory.js'
import { registerCommands } from '../_shared/register-command.js'

const COMMANDS = [
  { name: 'init', description: 'Have the model write a CLAUDE.md for this project, or improve the one there is', kind: 'prompt' as const },
  { name: 'memory', description: 'List the memory files this session loaded, and where the project and user memory files are', kind: 'local' as const },
]

/**
 * `/init` and `/memory`, the memory mod's commands. `/init` is a prompt: its turn has the model
 * study the project and write the file. Their code loads when one first runs.
 */
export function registerMemoryCommands(on: On, memoryOf: (sessionId: string) => SessionMemory | undefined, home: () => string): void {
  on('session.start', async ($, e, next) => {
    const r = await next(e)
    await registerCommands($, COMMANDS)
    return r
  })

  on('command.run', async ($, e, next) => {
    if (e.command === 'init') return { prompt: (await import('./init-prompt.js')).INIT_PROMPT }
    if (e.command !== 'memory') return next(e)
    const memory = memoryOf($.session.id() as string)
    return { output: (await import('./memory-listing.js')).memoryListing(memory?.loads ?? [], { project: join($.session.cwd() as string, 'CLAUDE.md'), user: join(home(), '.claude', 'CLAUDE.md'), auto: memory?.auto?.dir }) }
  })
}
