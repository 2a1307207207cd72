import type { SettingsSource } from '../permissions/settings-sources.js'
import type { StatusLineSetting } from '../_shared/status-line-setting.js'

/**
 * The `statusLine` a session in `cwd` shows, from every settings source with the hooks'
 * switches: `disableAllHooks` in managed settings turns it off; anywhere else, or
 * `allowManagedHooksOnly` in managed settings, leaves only a managed one. The highest source that
 * sets it wins (user < project < local < --settings < managed). A project's runs only in a trusted
 * workspace: a cloned repository must not run a command of its own at every redraw.
 */
export function statusLineOf(sources: readonly SettingsSource[], trusted: boolean, cwd: string, warnings: string[]): StatusLineSetting | undefined {
  const managed = (s: SettingsSource) => s.source.name === 'policySettings'
  let candidates = sources.filter((s) => s.settings.statusLine !== undefined)
  if (candidates.length === 0) return undefined
  // The scalar's winner: managed first, then the highest other source that sets it.
  const switchedBy = [...sources.filter(managed), ...sources.filter((s) => !managed(s)).reverse()]
    .find((s) => typeof s.settings.disableAllHooks === 'boolean')
  if (switchedBy?.settings.disableAllHooks === true) {
    if (managed(switchedBy)) return undefined
    candidates = candidates.filter(managed)
  } else if (sources.some((s) => managed(s) && s.settings.allowManagedHooksOnly === true)) {
    candidates = candidates.filter(managed)
  }
  for (const s of [...candidates.filter(managed), ...candidates.filter((c) => !managed(c)).reverse()]) {
    const setting = parse(s, warnings)
    if (!setting) continue
    if (s.source.projectLevel && !trusted) {
      warnings.push(`this workspace is not trusted, so the statusLine of ${s.source.label} is not run. To run it, run \`modloop trust ${cwd}\`, or pass --trust-workspace for one run.`)
      continue
    }
    return setting
  }
  return undefined
}

function parse({ source, settings }: SettingsSource, warnings: string[]): StatusLineSetting | undefined {
  const v = settings.statusLine as { type?: unknown; command?: unknown; padding?: unknown; refreshInterval?: unknown } | null
  if (typeof v !== 'object' || v === null || v.type !== 'command' || typeof v.command !== 'string' || v.command.trim() === '') {
    warnings.push(`${source.label}: "statusLine" must be { "type": "command", "command": "..." }; ignored`)
    return undefined
  }
  const padding = typeof v.padding === 'number' && Number.isFinite(v.padding) && v.padding > 0 ? Math.floor(v.padding) : 0
  const every = typeof v.refreshInterval === 'number' && Number.isFinite(v.refreshInterval) ? Math.max(1, v.refreshInterval) : undefined
  return { command: v.command, padding, ...(every !== undefined ? { refreshInterval: every } : {}), file: source.label }
}
