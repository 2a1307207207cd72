import type { ModApi } from '../../core/mod/api.js'
import { describeError } from '../../core/errors.js'
import { applySetting, settingRows, styleNames } from '../commands/config-command.js'
import { CONFIG_SETTINGS, type ConfigSetting } from '../commands/config-settings.js'
import type { Choice } from './chooser.js'

/** What the panel needs of the terminal: its choosers (the App). */
export interface PanelHost {
  choose<T>(title: string[], choices: Choice<T>[], cancel: T, start?: number): Promise<{ value: T; text?: string }>
}

/**
 * `/config` in the terminal: the settings as a list, each with its value; Enter on one flips a
 * true/false setting at once and offers the values of any other (typed text where the list is
 * open). Each change is written as `/config key=value` writes it and said in the scrollback; the
 * list comes back with the new value until Esc closes it, as Claude Code's panel stays open.
 */
export async function openConfigPanel(host: PanelHost, $: ModApi, say: (text: string, level?: 'info' | 'error') => void): Promise<void> {
  let index = 0
  for (;;) {
    const rows = await settingRows($)
    const width = Math.max(...rows.map((r) => r.setting.label.length)) + 2
    const choices = rows.map((r) => ({ label: `${r.setting.label.padEnd(width)}${r.value}`, value: r.setting as ConfigSetting | null }))
    const picked = await host.choose(['Settings', 'Enter changes the highlighted setting · Esc closes'], choices, null, index)
    if (!picked.value) return
    const setting = picked.value
    index = CONFIG_SETTINGS.indexOf(setting)
    const row = rows[index]!
    let raw: string | undefined
    if (setting.kind === 'boolean') raw = row.value === 'true' ? 'false' : 'true'
    else {
      const options = valuesOf(setting, $, row.value)
      const when = setting.applies === 'now' ? 'applies now' : 'applies from the next session'
      const typed = setting.kind === 'text' && setting.key !== 'outputStyle'
      const chosen = await host.choose(
        [setting.label, `Kept in ${row.file} (${setting.key}); ${when}`],
        [...options.map((v) => ({ label: v === row.value ? `${v} (current)` : v, value: v as string | null })), ...(typed ? [{ label: 'Other...', value: '', withText: setting.label }] : [])],
        null,
      )
      // Esc on the values goes back to the list.
      if (chosen.value === null) continue
      raw = chosen.text ?? chosen.value
    }
    try {
      say(await applySetting($, setting.key, raw))
    } catch (err) {
      say(describeError(err), 'error')
    }
  }
}

/** The values the panel offers for a setting: its list, the session's output styles, or the current value for typed text. */
function valuesOf(setting: ConfigSetting, $: ModApi, current: string): string[] {
  if (setting.key === 'outputStyle') return styleNames($) ?? ['default']
  const list = [...(setting.choices ?? [])]
  if (setting.kind === 'text' && !list.includes(current)) list.push(current)
  return list
}
