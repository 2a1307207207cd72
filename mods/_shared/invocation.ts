import { z } from 'zod'

/**
 * The command or skill that runs now, as the commands mod publishes it under `$.state`
 * `{plugin: 'commands', key: 'invocation'}`: set when a person runs `/name` or the model calls the
 * Skill tool, cleared by the next prompt (spec loop-and-sdk §6.2). Its frontmatter grants belong to
 * other mods: the permissions mod allows `allowedTools` until then, and the commands mod sends that
 * turn's requests to `model`, and the shell-hooks mod registers `hooks`.
 */
export const INVOCATION_REF = { plugin: 'commands', key: 'invocation' } as const

export const invocationShape = z.object({
  command: z.string(),
  /** Where the command file is: a project's widens access only in a trusted workspace; a plugin's was chosen by whoever loaded it. */
  source: z.enum(['project', 'user', 'plugin']),
  file: z.string().optional(),
  allowedTools: z.array(z.string()).optional(),
  model: z.string().optional(),
  /** Frontmatter hooks: the shell-hooks mod keeps them for the rest of the session. */
  hooks: z.record(z.string(), z.unknown()).optional(),
})
export type Invocation = z.output<typeof invocationShape>
