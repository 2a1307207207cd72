import { join } from 'node:path'
import type { LoadedPlugin } from '../../runtime/loader/types.js'
import { readCommandPath, readSkillPath, type PromptCommand } from './definitions.js'

/**
 * Each plugin's `commands/` and `skills/` (or the paths its manifest gives instead), named
 * `plugin:name`. A file that cannot be read is a warning naming it.
 */
export async function readPluginPrompts(
  plugins: readonly LoadedPlugin[], want: { commands: boolean; skills: boolean }, warn: (m: string) => void,
): Promise<{ commands: PromptCommand[]; skills: PromptCommand[] }> {
  const read = await Promise.all(plugins.map(async (p) => {
    const ref = { name: p.name, root: p.root, ...(p.id ? { id: p.id } : {}) }
    // The manifest's paths, where it gives them, replace the default directories.
    const read = (paths: readonly string[], one: typeof readCommandPath) => Promise.all(paths.map((path) => one(path, 'plugin', warn, ref))).then((all) => all.flat())
    const [commands, skills] = await Promise.all([
      want.commands ? read(p.paths?.commands ?? [join(p.root, 'commands')], readCommandPath) : [],
      want.skills ? read(p.paths?.skills ?? [join(p.root, 'skills')], readSkillPath) : [],
    ])
    return { commands, skills }
  }))
  return { commands: read.flatMap((r) => r.commands), skills: read.flatMap((r) => r.skills) }
}

/**
 * The plugin commands and skills also reachable without their prefix (`/deploy` for
 * `/tools:deploy`), as in Claude Code: only where the short name is free (no command or skill of
 * the user's or the project's holds it) and no other plugin offers the same short name.
 */
export function unprefixed(prompts: ReadonlyMap<string, PromptCommand>): Map<string, PromptCommand> {
  const byShort = new Map<string, PromptCommand[]>()
  for (const c of prompts.values()) {
    if (!c.plugin) continue
    const short = c.name.slice(c.plugin.name.length + 1)
    byShort.set(short, [...(byShort.get(short) ?? []), c])
  }
  const out = new Map<string, PromptCommand>()
  for (const [short, all] of byShort) if (all.length === 1 && !prompts.has(short)) out.set(short, all[0]!)
  return out
}
