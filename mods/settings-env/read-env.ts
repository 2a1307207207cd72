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
export async function readSettingsEnv(input: SettingsEnvInput): Promise<{ values: Map<string, string>; warnings: string[] }> {
  const read = await readSettingsSources({ cwd: input.cwd, places: input.places, flags: input.flags, env: input.env })
  const warnings: string[] = []
  // The trust store is read only when a project source has an env to decide on.
  const trusted = read.sources.some((s) => s.source.projectLevel && s.settings.env !== undefined)
    ? await workspaceTrusted(input.cwd, read.trustFlag, input.places, input.env, warnings)
    : true
  const blocks = mergeEnvBlocks(read.sources, trusted)
  warnings.push(...blocks.warnings)
  if (blocks.ignored.length > 0) warnings.push(ignoredEnvNotice(input.cwd, blocks.ignored))
  return { values: new Map([...blocks.values].map(([name, v]) => [name, v.value])), warnings }
}
