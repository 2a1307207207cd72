import type { ModApi } from '../../core/mod/api.js'
import type { SettingsFiles } from '../../runtime/settings-files.js'

/**
 * The session's settings files (the runtime's `settingsFiles` capability), which a start reads
 * once for every mod that looks at them; undefined in a host without it, where a reader goes to
 * disk. The mod declares `settingsFiles` in its uses.
 */
export function settingsReader($: ModApi): SettingsFiles | undefined {
  return $.capability.use('settingsFiles')
}
