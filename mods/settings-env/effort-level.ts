import { defaultEffort, type EffortLevel } from '../../core/model/capabilities.js'
import type { SettingsSource } from '../permissions/settings-sources.js'

/** The levels a settings file may keep; `max` is for one session only (`--effort max`, `/effort max`). */
const KEPT: readonly EffortLevel[] = ['low', 'medium', 'high', 'xhigh']

export interface EffortSetting {
  level: EffortLevel
  /** It came from the user's own settings file, which the newest models do not take it from. */
  fromUser: boolean
}

/**
 * The settings' `effortLevel`: the last source that sets a level they may keep wins (user <
 * project < local < --settings < policy); any other value is a warning naming the file, and the
 * source before it stands, as in Claude Code.
 */
export function effortSetting(sources: readonly SettingsSource[], warnings: string[]): EffortSetting | undefined {
  let found: EffortSetting | undefined
  for (const { source, settings } of sources) {
    const value = settings.effortLevel
    if (value === undefined) continue
    if (KEPT.includes(value as EffortLevel)) found = { level: value as EffortLevel, fromUser: source.name === 'userSettings' }
    else warnings.push(`${source.label}: "effortLevel" must be one of ${KEPT.join(', ')}; ignored`)
  }
  return found
}

/**
 * The level a request to `model` asks for. Claude Code takes no level from the user's settings
 * for the models whose own default is medium (the 5.5 generation, Fable and Mythos 5.2): there a
 * level the user kept is an older default, and the model's own applies.
 */
export function effortFor(setting: EffortSetting | undefined, model: string): EffortLevel | undefined {
  if (!setting || (setting.fromUser && defaultEffort(model) === 'medium')) return undefined
  return setting.level
}
