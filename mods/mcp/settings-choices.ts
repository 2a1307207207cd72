import { readSettingsSources, type SettingsSource } from '../permissions/settings-sources.js'

/** What the settings files decide for one `.mcp.json` server, before any approval is asked. */
export type SettingsChoice = 'approved' | 'rejected' | undefined

/**
 * The settings keys Claude Code answers its `.mcp.json` question with: `disabledMcpjsonServers`
 * (from any settings file) keeps a server out, `enabledMcpjsonServers` and
 * `enableAllProjectMcpServers` approve it. The approving keys are not taken from the checked-in
 * `.claude/settings.json`: the checkout would approve its own servers.
 */
export function choicesFrom(sources: readonly SettingsSource[]): (name: string) => SettingsChoice {
  const rejected = new Set<string>()
  const approved = new Set<string>()
  let approveAll = false
  for (const { source, settings } of sources) {
    for (const name of names(settings.disabledMcpjsonServers)) rejected.add(name)
    if (source.name === 'projectSettings') continue
    for (const name of names(settings.enabledMcpjsonServers)) approved.add(name)
    if (settings.enableAllProjectMcpServers === true) approveAll = true
  }
  return (name) => (rejected.has(name) ? 'rejected' : approveAll || approved.has(name) ? 'approved' : undefined)
}

const names = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [])

export interface ChoicesInput {
  cwd: string
  /** The user's home, where `.claude/settings.json` is read (default: CLAUDE_CONFIG_DIR, else the OS home). */
  home?: string
  /** The launch options (`settings`, `settingSources`), as `$.settings.read({source: 'flag'})` gives them. */
  flags: unknown
  env: Record<string, string | undefined>
}

/** {@link choicesFrom} the settings files, read here; files that cannot be read are left to the permissions mod, which reports them. */
export async function settingsChoices(input: ChoicesInput): Promise<(name: string) => SettingsChoice> {
  const { sources } = await readSettingsSources({ cwd: input.cwd, places: input.home ? { home: input.home } : {}, flags: input.flags, env: input.env })
  return choicesFrom(sources)
}
