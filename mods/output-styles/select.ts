import type { SettingsSource } from '../permissions/settings-sources.js'
import type { OutputStyle } from './read-styles.js'

/** Where the style in force was named: its value and the file (or option) that set it. */
export interface StyleChoice {
  value: string
  origin: string
}

/**
 * The `outputStyle` setting in force: user settings, the mod's `outputStyle` option (a
 * distribution's default), project settings, local settings, each `--settings`, then managed
 * policy — the last one that sets it wins, as for other scalar settings. A value that is not a
 * string is a warning naming the file; that file does not count.
 */
export function readChoice(sources: readonly SettingsSource[], option: string | undefined, warn: (m: string) => void): StyleChoice | undefined {
  let choice: StyleChoice | undefined
  let optionTaken = option === undefined
  const takeOption = () => {
    if (!optionTaken) choice = { value: option!, origin: "the output-styles mod's outputStyle option" }
    optionTaken = true
  }
  for (const { source, settings } of sources) {
    if (source.name !== 'userSettings') takeOption()
    const value = settings.outputStyle
    if (value === undefined) continue
    if (typeof value === 'string' && value.trim()) choice = { value: value.trim(), origin: source.label }
    else warn(`${source.label}: "outputStyle" must be the name of an output style; ignored`)
  }
  takeOption()
  return choice
}

// Claude Code's own styles besides Default; modloop ships none of them.
const CLAUDE_CODE_BUILTINS = ['explanatory', 'learning', 'proactive', 'concise']

/**
 * The style a setting names: `default` is modloop's own prompt (no style); else the style of that
 * exact name, then of that name in any case, then a plugin's style by its short name when only one
 * plugin has it. A name nothing matches → the default applies, with a warning naming the setting.
 */
export function findStyle(styles: readonly OutputStyle[], choice: StyleChoice | undefined, warn: (m: string) => void): OutputStyle | undefined {
  if (!choice || choice.value.toLowerCase() === 'default') return undefined
  const wanted = choice.value
  const byName = (pick: (s: OutputStyle) => boolean) => styles.filter(pick)
  const exact = byName((s) => s.name === wanted)
  // Later sources win a shared name: project over user.
  if (exact.length > 0) return exact.at(-1)
  const anyCase = byName((s) => s.name.toLowerCase() === wanted.toLowerCase())
  if (anyCase.length > 0) return anyCase.at(-1)
  const short = byName((s) => s.plugin !== undefined && s.name.slice(s.plugin.length + 1) === wanted)
  if (short.length === 1) return short[0]
  const known = styles.length > 0 ? styles.map((s) => s.name).join(', ') : 'none besides default'
  const builtin = CLAUDE_CODE_BUILTINS.includes(wanted.toLowerCase()) ? ` (Claude Code's built-in "${wanted}" style is not part of modloop)` : ''
  const clash = short.length > 1 ? ` (${short.map((s) => s.name).join(', ')} all have that short name)` : ''
  warn(`${choice.origin}: outputStyle "${wanted}" names no output style${builtin}${clash}; the default applies. Styles: ${known}`)
  return undefined
}
