import { z } from 'zod'
import type { PromptCommand } from './definitions.js'

/**
 * The Agent SDK's `skills` option, as the launch options carry it: `'all'` (every skill found, as
 * when it is absent) or the names of the skills the model may use. Anything else is reported and
 * left out, so a typo does not silently hide or offer every skill.
 */
const skillsOption = z.union([z.literal('all'), z.array(z.string().trim().min(1))])

export function readSkillsOption(flags: unknown, warn: (m: string) => void): readonly string[] | undefined {
  const value = (flags as { skills?: unknown } | undefined)?.skills
  if (value === undefined) return undefined
  const parsed = skillsOption.safeParse(value)
  if (!parsed.success) {
    warn(`the skills option must be "all" or a list of skill names (got ${JSON.stringify(value)?.slice(0, 100)}); every skill found is offered`)
    return undefined
  }
  return parsed.data === 'all' ? undefined : parsed.data.map((n) => n.replace(/^\//, ''))
}

/**
 * Whether an entry of the list names this skill or command: its name, its directory's name
 * (`alias`), or, for a plugin's, its name after the plugin's prefix (`pdf` for `tools:pdf`), as
 * Claude Code matches a `:name` suffix.
 */
function names(entry: string, def: PromptCommand): boolean {
  return def.name === entry || def.alias === entry || def.name.endsWith(`:${entry}`)
}

/**
 * What the list leaves of each skill and command found: an unlisted one stays out of the listing
 * and the Skill tool refuses it, while `/name` still runs it (a filter of what the model is
 * offered, not a sandbox: its files stay readable). Entries that name nothing found are reported.
 */
export function skillsFilter(list: readonly string[], found: readonly PromptCommand[], warn: (m: string) => void): (def: PromptCommand) => PromptCommand {
  const unmatched = list.filter((entry) => !found.some((def) => names(entry, def)))
  if (unmatched.length > 0) warn(`the skills option names ${unmatched.map((n) => `"${n}"`).join(', ')}, which ${unmatched.length === 1 ? 'is no skill' : 'are no skills'} found for this session`)
  return (def) => (list.some((entry) => names(entry, def)) ? def : { ...def, modelInvocable: false, unlisted: true })
}
