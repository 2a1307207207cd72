import { join } from 'node:path'
import { readSettingsArg, readSettingsJson, type SettingsJson } from '../../hooks-runner/read-settings.js'
import type { OutputStyle } from './read-styles.js'
import type { SettingSource } from '../_shared/setting-sources.js'

/** Where the style in force was named: its value and the file (or option) that set it. */
export interface StyleChoice {
  value: string
  origin: string
}

export interface ChoiceInput {
  cwd: string
  /** The user's `.claude` folder. */
  claudeDir: string
  /** The mod's `outputStyle` option: a distribution's default. */
  option?: string
  /** `--settings` values (file paths or inline JSON), from the launch flags. */
  settingsArgs: readonly string[]
  /** The settings files --setting-sources names (all when absent). */
  sources?: ReadonlySet<SettingSource>
}

/**
 * The `outputStyle` setting in force: user settings, the mod's option, project settings, local
 * settings, then each `--settings` — the last one that sets it wins, as for other scalar
 * settings. A value that is not a string is a warning naming the file; that file does not count.
 * A settings file that cannot be read is left to the mods that read its other keys to report.
 */
export async function readChoice(input: ChoiceInput, warn: (m: string) => void): Promise<StyleChoice | undefined> {
  let choice: StyleChoice | undefined
  const take = (origin: string, read: SettingsJson) => {
    if (read.status !== 'ok' || read.json.outputStyle === undefined) return
    const value = read.json.outputStyle
    if (typeof value === 'string' && value.trim()) choice = { value: value.trim(), origin }
    else warn(`${origin}: "outputStyle" must be the name of an output style; ignored`)
  }
  const userFile = join(input.claudeDir, 'settings.json')
  const projectFile = join(input.cwd, '.claude', 'settings.json')
  const reads = (source: SettingSource) => input.sources?.has(source) ?? true
  if (reads('user')) take(userFile, await readSettingsJson(userFile))
  if (input.option) choice = { value: input.option, origin: "the output-styles mod's outputStyle option" }
  if (projectFile !== userFile && reads('project')) take(projectFile, await readSettingsJson(projectFile))
  const localFile = join(input.cwd, '.claude', 'settings.local.json')
  if (reads('local')) take(localFile, await readSettingsJson(localFile))
  for (const arg of input.settingsArgs) {
    const { file, read } = await readSettingsArg(arg, input.cwd)
    take(file, read)
  }
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
