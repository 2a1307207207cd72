import type { ModApi } from '../../core/mod/api.js'
import { describeError } from '../../core/errors.js'
import { readJsonObject } from '../_shared/json-file.js'
import { CONFIG_SETTINGS, fileOf, findSetting, parseValue, shownValue, writeSetting, type ConfigSetting } from './config-settings.js'

const USAGE = 'Change one with /config <key>=<value>, e.g. /config autoCompactEnabled=false.'

/** The session's view of the files: its environment (HOME, CLAUDE_CONFIG_DIR) and folder. */
function place($: ModApi) {
  return { env: (name: string) => $.env.get(name), cwd: $.session.cwd() as string }
}

/** The output styles a session can pick (default first); undefined without the mod that reads them. */
export function styleNames($: ModApi): string[] | undefined {
  return $.capability.use('outputStyleList')?.names($.session.id() as string)
}

export interface SettingRow { setting: ConfigSetting; value: string; set: boolean; file: string }

/**
 * Every setting's row: its value, the file it is kept in and (through the setting) when a change
 * applies. The three files hold five settings: each is read once.
 */
export async function settingRows($: ModApi): Promise<SettingRow[]> {
  const { env, cwd } = place($)
  const reads = new Map<string, Promise<Record<string, unknown>>>()
  return Promise.all(CONFIG_SETTINGS.map(async (s) => {
    const file = fileOf(s.place, env, cwd)
    if (!reads.has(file)) reads.set(file, readJsonObject(file))
    try {
      return { setting: s, ...shownValue(s, await reads.get(file)!), file }
    } catch (err) {
      return { setting: s, value: `(unreadable: ${describeError(err)})`, set: false, file }
    }
  }))
}

/** `/config` alone: every setting with its value, its file and when a change applies. */
export async function configList($: ModApi): Promise<string> {
  const rows = await settingRows($)
  const width = Math.max(...rows.map((r) => `${r.setting.label} (${r.setting.key})`.length)) + 2
  const lines = rows.map((r) => `  ${`${r.setting.label} (${r.setting.key})`.padEnd(width)}${r.value}${r.set ? '' : ' (not set)'}  - ${r.file}, applies ${r.setting.applies === 'now' ? 'now' : 'from the next session'}`)
  return ['Settings:', ...lines, USAGE].join('\n')
}

/**
 * Sets one setting: checks the value, writes it to the setting's file and, for one that applies
 * now, to the running session (a model switch goes through $.config.set, so a handler may refuse
 * it, and then nothing is written). Answers what was done; a bad key or value throws naming it.
 */
export async function applySetting($: ModApi, key: string, raw: string): Promise<string> {
  const setting = findSetting(key)
  if (!setting) throw new Error(`/config: unknown setting "${key}"; the settings are ${CONFIG_SETTINGS.map((s) => s.key).join(', ')}`)
  const { value } = parseValue(setting, raw, setting.key === 'outputStyle' ? styleNames($) : undefined)
  if (setting.key === 'model') {
    const r = (await $.config.set({ key: 'model', value: value === undefined ? null : (value as string) })) as { value: string } | { deny: string }
    if ('deny' in r) throw new Error(`/config: the switch to model ${String(value)} was refused: ${r.deny}`)
  }
  const { env, cwd } = place($)
  const file = await writeSetting(setting, value, env, cwd)
  const shown = value === undefined ? `${setting.unset} (removed from the file)` : String(value)
  const when = setting.applies === 'now' ? 'applies now' : 'applies from the next session (/clear starts one)'
  return `Set ${setting.label} (${setting.key}) to ${shown} in ${file}; ${when}.`
}

/** `/config [key=value]`: lists the settings, or sets one. */
export async function configCommand($: ModApi, args: string): Promise<{ output: string } | { deny: string; isError: true }> {
  const text = args.trim()
  if (!text) return { output: await configList($) }
  const eq = text.indexOf('=')
  if (eq <= 0) return { deny: `/config takes <key>=<value>, not "${text}". ${USAGE}`, isError: true }
  try {
    return { output: await applySetting($, text.slice(0, eq).trim(), text.slice(eq + 1)) }
  } catch (err) {
    return { deny: describeError(err), isError: true }
  }
}
