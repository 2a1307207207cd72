import { readSettingsSources, type SettingsPlaces } from '../permissions/settings-sources.js'
import { workspaceTrusted, type TrustLocation } from '../permissions/trust-store.js'
import { ignoredEnvNotice, mergeEnvBlocks } from './env-blocks.js'

export interface SettingsEnvInput {
  cwd: string
  places: SettingsPlaces & TrustLocation
  /** The launch options as `$.settings.read({source: 'flag'})` gives them (`settings`, `settingSources`, `trustWorkspace`). */
  flags: unknown
  /** The environment the session starts with: where CLAUDE_CONFIG_DIR and MODLOOP_HOME are read. */
  env: Record<string, string | undefined>
}

/**
 * What the settings files' `env` blocks set for a session in `cwd` (name → value), with the
 * warnings to show: malformed entries, and the project variables an untrusted workspace holds back.
 * Files that cannot be read are left to the permissions and shell-hooks mods, which report them.
 */
export async function readSettingsEnv(input: SettingsEnvInput): Promise<{ values: Map<string, string>; model?: string; warnings: string[] }> {
  const read = await readSettingsSources({ cwd: input.cwd, places: input.places, flags: input.flags, env: input.env })
  const warnings: string[] = []
  // The trust store is read only when a project source has an env or a model to decide on.
  const trusted = read.sources.some((s) => s.source.projectLevel && (s.settings.env !== undefined || s.settings.model !== undefined))
    ? await workspaceTrusted(input.cwd, read.trustFlag, input.places, input.env, warnings)
    : true
  const blocks = mergeEnvBlocks(read.sources, trusted)
  warnings.push(...blocks.warnings)
  if (blocks.ignored.length > 0) warnings.push(ignoredEnvNotice(input.cwd, blocks.ignored))
  const model = settingsModel(read.sources, trusted, warnings)
  return { values: new Map([...blocks.values].map(([name, v]) => [name, v.value])), ...(model ? { model } : {}), warnings }
}

/**
 * The `model` the settings name: the last source that sets one wins (user < project < local <
 * --settings < policy). A project's counts only in a trusted workspace, as its env does: a cloned
 * repository could otherwise pick the dearest model for every run in it.
 */
function settingsModel(sources: Awaited<ReturnType<typeof readSettingsSources>>['sources'], trusted: boolean, warnings: string[]): string | undefined {
  let model: string | undefined
  for (const { source, settings } of sources) {
    const value = settings.model
    if (value === undefined) continue
    if (typeof value !== 'string' || value.trim() === '') {
      warnings.push(`${source.label}: "model" must be a model name or alias; ignored`)
      continue
    }
    if (source.projectLevel && !trusted) continue
    model = value.trim()
  }
  return model
}
