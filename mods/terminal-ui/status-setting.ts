import { readSettingsSources, type SettingsPlaces, type SettingsSource } from '../permissions/settings-sources.js'
import { workspaceTrusted, type TrustLocation } from '../permissions/trust-store.js'

/** The `statusLine` setting in force: a command whose output the terminal shows under the prompt. */
export interface StatusLineSetting {
  command: string
  /** Extra columns before the text, past the two the footer is indented by. */
  padding: number
  /** Seconds between runs while nothing changes; absent, it runs only when the session changes. */
  refreshInterval?: number
  /** The settings file it came from, to name in a notice. */
  file: string
}

export interface StatusSettingInput {
  cwd: string
  places: SettingsPlaces & TrustLocation
  /** The launch options, as `$.settings.read({source: 'flag'})` gives them (`settings`, `settingSources`, `trustWorkspace`). */
  flags: unknown
  env: Record<string, string | undefined>
}

/**
 * The `statusLine` a session in `cwd` shows, read from every settings source with the hooks'
 * switches: `disableAllHooks` in managed settings turns it off; anywhere else, or
 * `allowManagedHooksOnly` in managed settings, leaves only a managed one. The highest source that
 * sets it wins (user < project < local < --settings < managed). A project's runs only in a trusted
 * workspace: a cloned repository must not run a command of its own at every redraw.
 */
export async function readStatusLineSetting(input: StatusSettingInput): Promise<{ setting?: StatusLineSetting; warnings: string[] }> {
  const read = await readSettingsSources({ cwd: input.cwd, places: input.places, flags: input.flags, env: input.env })
  // Unreadable files are the permissions and shell-hooks mods' to report: only the statusLine's own problems here.
  const warnings: string[] = []
  const managed = (s: SettingsSource) => s.source.name === 'policySettings'
  let candidates = read.sources.filter((s) => s.settings.statusLine !== undefined)
  if (candidates.length === 0) return { warnings }
  // The scalar's winner: managed first, then the highest other source that sets it.
  const switchedBy = [...read.sources.filter(managed), ...read.sources.filter((s) => !managed(s)).reverse()]
    .find((s) => typeof s.settings.disableAllHooks === 'boolean')
  if (switchedBy?.settings.disableAllHooks === true) {
    if (managed(switchedBy)) return { warnings }
    candidates = candidates.filter(managed)
  } else if (read.sources.some((s) => managed(s) && s.settings.allowManagedHooksOnly === true)) {
    candidates = candidates.filter(managed)
  }
  for (const s of [...candidates.filter(managed), ...candidates.filter((c) => !managed(c)).reverse()]) {
    const setting = parse(s, warnings)
    if (!setting) continue
    if (s.source.projectLevel && !await workspaceTrusted(input.cwd, read.trustFlag, input.places, input.env, warnings)) {
      warnings.push(`this workspace is not trusted, so the statusLine of ${s.source.label} is not run. To run it, run \`modloop trust ${input.cwd}\`, or pass --trust-workspace for one run.`)
      continue
    }
    return { setting, warnings }
  }
  return { warnings }
}

function parse({ source, settings }: SettingsSource, warnings: string[]): StatusLineSetting | undefined {
  const v = settings.statusLine as { type?: unknown; command?: unknown; padding?: unknown; refreshInterval?: unknown } | null
  if (typeof v !== 'object' || v === null || v.type !== 'command' || typeof v.command !== 'string' || v.command.trim() === '') {
    warnings.push(`${source.label}: "statusLine" must be { "type": "command", "command": "…" }; ignored`)
    return undefined
  }
  const padding = typeof v.padding === 'number' && Number.isFinite(v.padding) && v.padding > 0 ? Math.floor(v.padding) : 0
  const every = typeof v.refreshInterval === 'number' && Number.isFinite(v.refreshInterval) ? Math.max(1, v.refreshInterval) : undefined
  return { command: v.command, padding, ...(every !== undefined ? { refreshInterval: every } : {}), file: source.label }
}
