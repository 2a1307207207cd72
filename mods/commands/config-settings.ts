import { PERMISSION_MODES } from '../../core/permission-modes.js'
import { globalConfigFile, localSettingsFile, userSettingsFile } from '../_shared/config-places.js'
import { setSettingsKey, valueAt } from '../_shared/settings-file-write.js'

type Env = (name: string) => string | undefined

/** Which file a setting is kept in, as Claude Code's /config keeps it. */
export type ConfigPlace = 'global' | 'user' | 'local'

/**
 * One row of `/config`: a setting some modloop mod reads, under the key, in the file and with the
 * values Claude Code's /config uses for it. `applies` says when a change is felt: `now` (the next
 * request or turn) or `next session` (read once when a session starts: a new one, /clear or a resume).
 */
export interface ConfigSetting {
  key: string
  label: string
  place: ConfigPlace
  path: readonly string[]
  kind: 'boolean' | 'choice' | 'text'
  /** The values a `choice` takes (the panel offers them in this order). */
  choices?: readonly string[]
  /** What holds when the file does not set it. */
  unset: string
  applies: 'now' | 'next session'
  /** A value that removes the key instead of writing it (back to what holds unset). */
  clears?: string
}

export const CONFIG_SETTINGS: readonly ConfigSetting[] = [
  { key: 'autoCompactEnabled', label: 'Auto-compact', place: 'global', path: ['autoCompactEnabled'], kind: 'boolean', unset: 'true', applies: 'now' },
  { key: 'model', label: 'Model', place: 'user', path: ['model'], kind: 'text', choices: ['default', 'opus', 'sonnet', 'haiku', 'opusplan'], unset: 'default', clears: 'default', applies: 'now' },
  { key: 'defaultMode', label: 'Default permission mode', place: 'user', path: ['permissions', 'defaultMode'], kind: 'choice', choices: PERMISSION_MODES, unset: 'default', applies: 'next session' },
  { key: 'outputStyle', label: 'Output style', place: 'local', path: ['outputStyle'], kind: 'text', unset: 'default', applies: 'next session' },
  { key: 'language', label: 'Language', place: 'user', path: ['language'], kind: 'text', unset: 'default', clears: 'default', applies: 'next session' },
]

/** A row by the key `/config key=value` names (any case; `permissions.defaultMode` too). */
export function findSetting(key: string): ConfigSetting | undefined {
  const wanted = key.toLowerCase()
  return CONFIG_SETTINGS.find((s) => s.key.toLowerCase() === wanted || s.path.join('.').toLowerCase() === wanted)
}

export function fileOf(place: ConfigPlace, env: Env, cwd: string): string {
  return place === 'global' ? globalConfigFile(env) : place === 'user' ? userSettingsFile(env) : localSettingsFile(cwd)
}

/**
 * The text a person gave, as the value to write: a boolean from true or false, a choice from its
 * list, text trimmed; `undefined` for the value that clears the key. A value the row does not take
 * is an error naming the key and what it takes.
 */
export function parseValue(setting: ConfigSetting, raw: string, known?: readonly string[]): { value: unknown } {
  const text = raw.trim()
  if (setting.clears !== undefined && text.toLowerCase() === setting.clears) return { value: undefined }
  if (setting.kind === 'boolean') {
    if (text === 'true' || text === 'false') return { value: text === 'true' }
    throw new Error(`${setting.key} takes true or false, not "${raw}"`)
  }
  if (!text) throw new Error(`${setting.key} needs a value${setting.clears ? ` (${setting.clears} clears it)` : ''}`)
  const list = setting.kind === 'choice' ? setting.choices : known
  if (list) {
    const match = list.find((c) => c.toLowerCase() === text.toLowerCase())
    if (!match) throw new Error(`${setting.key} takes one of ${list.join(', ')}, not "${raw}"`)
    return { value: match }
  }
  return { value: text }
}

/** What `settings` (the row's file) holds for the row, as text; the unset value when nothing. */
export function shownValue(setting: ConfigSetting, settings: Record<string, unknown>): { value: string; set: boolean } {
  const value = valueAt(settings, setting.path)
  if (value === undefined) return { value: setting.unset, set: false }
  return { value: typeof value === 'string' ? value : JSON.stringify(value), set: true }
}

/** Writes the value (undefined: removes the key) to the row's file; answers that file. */
export async function writeSetting(setting: ConfigSetting, value: unknown, env: Env, cwd: string): Promise<string> {
  const file = fileOf(setting.place, env, cwd)
  await setSettingsKey(file, setting.path, value)
  return file
}
