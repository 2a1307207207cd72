import type { ModApi } from '../../core/mod/api.js'

/** A settings source the launch's `settingSources` (`--setting-sources`) may name. */
export type SettingSource = 'user' | 'project' | 'local'

const ALL: readonly SettingSource[] = ['user', 'project', 'local']

/**
 * The settings sources this launch reads: the Agent SDK's `settingSources` (`--setting-sources`)
 * when given, else all three. They gate more than settings files: memory, commands, skills, agent
 * types and output styles of a source load only when it is named, as in Claude Code.
 */
export function settingSources($: ModApi): ReadonlySet<SettingSource> {
  try {
    const flags = $.settings.read({ source: 'flag' }) as { settingSources?: unknown }
    if (!Array.isArray(flags?.settingSources)) return new Set(ALL)
    return new Set(flags.settingSources.filter((s): s is SettingSource => ALL.includes(s as SettingSource)))
  } catch {
    return new Set(ALL)
  }
}
