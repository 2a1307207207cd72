import type { ModApi, ModInfo } from '../../core/mod/api.js'

interface Listed { name: string; description: string; plugin?: string }

export const BUILTINS = [
  { name: 'help', description: 'List the slash commands of this session' },
  { name: 'mods', description: 'List the loaded mods and the commands each registered' },
  { name: 'clear', description: 'Start a new conversation: the history is dropped and a new session id begins' },
  { name: 'cost', description: "Show the session's cost, API and wall time, and tokens by model" },
  // Claude Code's newer name for /cost, which its listings show instead; both stay.
  { name: 'usage', description: "Show the session's cost, API and wall time, and tokens by model (as /cost)" },
  { name: 'context', description: 'Show how full the context window is and how much room is left' },
  { name: 'status', description: "Show modloop's version, the session, its folder, model, permission mode and MCP servers" },
  { name: 'reload-skills', description: 'Read the skill and command directories again: skills added or changed on disk run without a restart' },
  { name: 'export', description: 'Write the conversation as plain text to a file (default: named for the time and the first prompt, in the session folder)', argumentHint: '[file]' },
  { name: 'config', description: 'Show the settings modloop reads, or change one: /config <key>=<value> writes it where Claude Code keeps it', argumentHint: '[key=value]' },
  // Claude Code's other name for /config.
  { name: 'settings', description: 'Show or change the settings (as /config)', argumentHint: '[key=value]' },
  { name: 'btw', description: 'Ask a quick side question about the conversation: answered without tools, and neither it nor the answer joins the history', argumentHint: '<question>' },
] as const

/** `/help`: every command any mod registered, with its argument hint where this mod knows it. */
export async function helpText($: ModApi, hints: ReadonlyMap<string, string>): Promise<string> {
  const commands = (await $.command.list()) as Listed[]
  if (commands.length === 0) return 'No slash commands are registered.'
  const rows = [...commands].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).map((c) => {
    const hint = hints.get(c.name)
    return `/${c.name}${hint ? ` ${hint}` : ''} - ${c.description || '(no description)'}`
  })
  return ['Slash commands:', ...rows].join('\n')
}

/** `/mods`: every loaded mod in load order, with its version, where it came from and its commands. */
export async function modsText($: ModApi): Promise<string> {
  const mods = $.session.mods() as ModInfo[]
  const commands = (await $.command.list()) as Listed[]
  const byMod = new Map<string, string[]>()
  for (const c of commands) if (c.plugin) byMod.set(c.plugin, [...(byMod.get(c.plugin) ?? []), `/${c.name}`])
  const rows = mods.map((m) => {
    const facts = [m.version ? `v${m.version}` : '', m.source ?? ''].filter(Boolean).join(', ')
    const names = byMod.get(m.name)
    return `${m.name}${facts ? ` (${facts})` : ''}${m.description ? ` - ${m.description}` : ''}${names ? `; commands: ${names.sort().join(', ')}` : ''}`
  })
  return [`Mods (${mods.length}, in load order):`, ...rows].join('\n')
}
