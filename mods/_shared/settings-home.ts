import type { ModApi } from '../../core/mod/api.js'

/**
 * The home whose `.claude/settings.json` a mod reads: its `home` option, else the session's HOME
 * (a query may give its own), where its `.claude` folder is looked for too; unset when
 * CLAUDE_CONFIG_DIR names that folder, which readSettingsSources then takes.
 */
export function settingsHome($: ModApi, option?: string): string | undefined {
  return option ?? ($.env.get('CLAUDE_CONFIG_DIR') ? undefined : $.env.get('HOME') || undefined)
}
