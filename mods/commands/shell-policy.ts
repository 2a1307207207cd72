import type { SettingsFileReader } from '../../hooks-runner/read-settings.js'
import { readSettingsSources } from '../permissions/settings-sources.js'

export interface ShellPolicyInput {
  cwd: string
  /** The user's home, where `.claude/settings.json` is read (default: CLAUDE_CONFIG_DIR, else the OS home). */
  home?: string
  /** The launch options (`settings`, `settingSources`), as `$.settings.read({source: 'flag'})` gives them. */
  flags: unknown
  env: Record<string, string | undefined>
  /** Reads the settings files (the session's `settingsFiles`; default: from disk). */
  reader?: SettingsFileReader
}

/** What a command's or skill's shell line becomes when the settings turn them off, as Claude Code words it. */
export const SHELL_DISABLED = '[shell command execution disabled by policy]'

/**
 * The settings' `disableSkillShellExecution`, the last source that sets it winning. Read only when
 * a command or skill that embeds a shell line is run, so sessions without one pay nothing. Files
 * that cannot be read are left to the permissions mod, which reports them.
 */
export async function shellLinesDisabled(input: ShellPolicyInput): Promise<boolean> {
  const { sources } = await readSettingsSources({ cwd: input.cwd, places: input.home ? { home: input.home } : {}, flags: input.flags, env: input.env, reader: input.reader })
  return sources.findLast((s) => typeof s.settings.disableSkillShellExecution === 'boolean')?.settings.disableSkillShellExecution === true
}
