import type { SettingsFileReader } from '../../hooks-runner/read-settings.js'
import { readSettingsSources } from '../permissions/settings-sources.js'
import type { PromptCommand, SkillOverride } from './definitions.js'

const VALUES: readonly string[] = ['on', 'name-only', 'user-invocable-only', 'off']

export interface OverridesInput {
  cwd: string
  /** The user's home, where `.claude/settings.json` is read (default: CLAUDE_CONFIG_DIR, else the OS home). */
  home?: string
  /** The launch options (`settings`, `settingSources`), as `$.settings.read({source: 'flag'})` gives them. */
  flags: unknown
  env: Record<string, string | undefined>
  /** Reads the settings files (the session's `settingsFiles`; default: from disk). */
  reader?: SettingsFileReader
}

/**
 * The settings' `skillOverrides` (skill name → `on`, `name-only`, `user-invocable-only` or `off`),
 * merged over the sources, the last that names a skill winning. A value of another kind is a
 * warning naming the file; files that cannot be read are left to the permissions mod, which reports them.
 */
export async function readSkillOverrides(input: OverridesInput, warn: (m: string) => void): Promise<Map<string, SkillOverride | 'on'>> {
  const { sources } = await readSettingsSources({ cwd: input.cwd, places: input.home ? { home: input.home } : {}, flags: input.flags, env: input.env, reader: input.reader })
  const out = new Map<string, SkillOverride | 'on'>()
  for (const { source, settings } of sources) {
    const value = settings.skillOverrides
    if (value === undefined) continue
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      warn(`${source.label}: "skillOverrides" must map skill names to ${VALUES.join(', ')}; ignored`)
      continue
    }
    for (const [name, v] of Object.entries(value)) {
      if (typeof v === 'string' && VALUES.includes(v)) out.set(name, v as SkillOverride | 'on')
      else warn(`${source.label}: skillOverrides.${name} must be one of ${VALUES.join(', ')}; ignored`)
    }
  }
  return out
}

/**
 * A command or skill as its override leaves it: `name-only` is listed to the model without its
 * description, `user-invocable-only` is kept from the model, `off` from the model and from `/name`.
 */
export function withOverride(def: PromptCommand, overrides: ReadonlyMap<string, SkillOverride | 'on'>): PromptCommand {
  const override = overrides.get(def.name) ?? (def.alias ? overrides.get(def.alias) : undefined)
  if (override === undefined || override === 'on') return def
  const hidden = override !== 'name-only'
  return { ...def, override, modelInvocable: def.modelInvocable && !hidden, userInvocable: def.userInvocable && override !== 'off' }
}
