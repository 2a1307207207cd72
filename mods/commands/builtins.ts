import type { ModApi } from '../../core/mod/api.js'

interface Listed { name: string; description: string; plugin?: string }

export const BUILTINS = [
  { name: 'help', description: 'List the slash commands of this session' },
  { name: 'mods', description: 'List the mods that registered commands' },
  { name: 'clear', description: 'Start a new conversation: the history is dropped and a new session id begins' },
  { name: 'cost', description: "Show the session's cost, API and wall time, and tokens by model" },
] as const

/** `/help`: every command any mod registered, with its argument hint where this mod knows it. */
export async function helpText($: ModApi, hints: ReadonlyMap<string, string>): Promise<string> {
  const commands = (await $.command.list()) as Listed[]
  if (commands.length === 0) return 'No slash commands are registered.'
  const rows = [...commands].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).map((c) => {
    const hint = hints.get(c.name)
    return `/${c.name}${hint ? ` ${hint}` : ''} — ${c.description || '(no description)'}`
  })
  return ['Slash commands:', ...rows].join('\n')
}

/**
 * `/mods`. `$` has no way to list the loaded mods yet, so this answers with what it can see: the
 * mods behind the registered commands. A `$` listing of mods (name, source, status) would let
 * it show every loaded mod, including ones that only handle events.
 */
export async function modsText($: ModApi): Promise<string> {
  const commands = (await $.command.list()) as Listed[]
  const byMod = new Map<string, string[]>()
  for (const c of commands) {
    const mod = c.plugin ?? 'unknown'
    byMod.set(mod, [...(byMod.get(mod) ?? []), `/${c.name}`])
  }
  const rows = [...byMod].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([mod, names]) => `${mod}: ${names.join(', ')}`)
  return [
    'Mods that registered slash commands (modloop cannot yet list every loaded mod from inside a mod; `modloop mods list` shows them all):',
    ...rows,
  ].join('\n')
}
