import type { SettingsFileReader } from '../../hooks-runner/read-settings.js'
import { readSettingsSources, type SettingsPlaces } from '../permissions/settings-sources.js'
import { workspaceTrusted, type TrustLocation } from '../permissions/trust-store.js'
import { ignoredEnvNotice, mergeEnvBlocks } from './env-blocks.js'
import { statusLineOf } from './status-line.js'
import { effortSetting, type EffortSetting } from './effort-level.js'
import type { StatusLineSetting } from '../_shared/status-line-setting.js'

export interface SettingsEnvInput {
  cwd: string
  places: SettingsPlaces & TrustLocation
  /** The launch options as `$.settings.read({source: 'flag'})` gives them (`settings`, `settingSources`, `trustWorkspace`). */
  flags: unknown
  /** The environment the session starts with: where CLAUDE_CONFIG_DIR and MODLOOP_HOME are read. */
  env: Record<string, string | undefined>
  /** Reads the settings files (the session's `settingsFiles`; default: from disk). */
  reader?: SettingsFileReader
}

/**
 * What the settings files' `env` blocks set for a session in `cwd` (name → value), with the
 * warnings to show: malformed entries, and the project variables an untrusted workspace holds back.
 * Files that cannot be read are left to the permissions and shell-hooks mods, which report them.
 */
export async function readSettingsEnv(input: SettingsEnvInput): Promise<{ values: Map<string, string>; model?: string; effort?: EffortSetting; keyHelper?: KeyHelperSetting; statusLine?: StatusLineSetting; warnings: string[] }> {
  const read = await readSettingsSources({ cwd: input.cwd, places: input.places, flags: input.flags, env: input.env, reader: input.reader })
  const warnings: string[] = []
  // The trust store is read only when a project source has an env, a model, a key helper or a status line to decide on.
  const trusted = read.sources.some((s) => s.source.projectLevel && (s.settings.env !== undefined || s.settings.model !== undefined || s.settings.apiKeyHelper !== undefined || s.settings.statusLine !== undefined))
    ? await workspaceTrusted(input.cwd, read.trustFlag, input.places, input.env, warnings)
    : true
  const blocks = mergeEnvBlocks(read.sources, trusted)
  warnings.push(...blocks.warnings)
  if (blocks.ignored.length > 0) warnings.push(ignoredEnvNotice(input.cwd, blocks.ignored))
  const model = settingsModel(read.sources, trusted, warnings)
  const keyHelper = keyHelperSetting(read.sources, trusted, input.cwd, warnings)
  const statusLine = statusLineOf(read.sources, trusted, input.cwd, warnings)
  const effort = effortSetting(read.sources, warnings)
  return { values: new Map([...blocks.values].map(([name, v]) => [name, v.value])), ...(model ? { model } : {}), ...(effort ? { effort } : {}), ...(keyHelper ? { keyHelper } : {}), ...(statusLine ? { statusLine } : {}), warnings }
}

export interface KeyHelperSetting {
  command: string
  /** The settings file that named it. */
  file: string
}

/**
 * The `apiKeyHelper` the settings name: the last source that sets one wins, as in Claude Code. A
 * project's runs only in a trusted workspace, as its env applies: a cloned repository could
 * otherwise run a command of its own at the first request.
 */
function keyHelperSetting(sources: Awaited<ReturnType<typeof readSettingsSources>>['sources'], trusted: boolean, cwd: string, warnings: string[]): KeyHelperSetting | undefined {
  let found: KeyHelperSetting | undefined
  for (const { source, settings } of sources) {
    const value = settings.apiKeyHelper
    if (value === undefined) continue
    if (typeof value !== 'string' || value.trim() === '') {
      warnings.push(`${source.label}: "apiKeyHelper" must be a shell command; ignored`)
      continue
    }
    if (source.projectLevel && !trusted) {
      warnings.push(`this workspace is not trusted, so the apiKeyHelper of ${source.label} is not run. To run it, run \`modloop trust ${cwd}\`, or pass --trust-workspace for one run.`)
      continue
    }
    found = { command: value, file: source.label }
  }
  return found
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
