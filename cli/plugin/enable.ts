import type { CommandRun } from '../command.js'
import type { Io } from '../io.js'
import { enabledPluginsIn, readInstalledPlugins, recordApplies, settingsFileOf, SCOPES, splitPluginId, type Scope } from '../../runtime/plugin-store/files.js'
import { installedId } from './install.js'
import { outcomeOf } from './outcome.js'
import { editSettingsMap, scopeOf } from './store.js'

/** Whether the settings enable `id`, the local file over the project's over the user's. */
export function isEnabled(io: Io, id: string): boolean {
  let enabled = false
  for (const scope of SCOPES) {
    const value = enabledPluginsIn(settingsFileOf(scope, io.env, io.cwd))[id]
    if (typeof value === 'boolean') enabled = value
  }
  return enabled
}

/** Without --scope, the nearest scope the plugin is installed in for this project, as Claude Code picks it; else the user's. */
export function scopeFor(io: Io, id: string, given: unknown): Scope {
  const explicit = scopeOf(given)
  if (explicit) return explicit
  const records = (readInstalledPlugins(io.env).plugins[id] ?? []).filter((r) => recordApplies(r, io.cwd))
  return (['local', 'project', 'user'] as const).find((s) => records.some((r) => r.scope === s)) ?? 'user'
}

const toggle = (on: boolean): CommandRun => async ({ values, positionals, io }) => {
  const given = positionals[0]!
  const id = installedId(io, given)
  const verb = on ? 'enable' : 'disable'
  const report = outcomeOf(io, values, verb)
  if (isEnabled(io, id) === on) {
    return report.failed(`Failed to ${verb} plugin "${given}": `, `Plugin "${id}" is already ${verb}d`, 'already_in_goal_state', { plugin: given }, { alreadyInGoalState: true })
  }
  const scope = scopeFor(io, id, values.scope)
  await editSettingsMap(io, scope, 'enabledPlugins', (map) => { map[id] = on })
  return report.ok(`Successfully ${verb}d plugin: ${splitPluginId(id).name} (scope: ${scope})`, { plugin: given, pluginId: id, scope })
}

/** `modloop plugin enable <plugin> [--scope]`: `enabledPlugins[id] = true` in the scope's settings file. */
export const enable = toggle(true)
/** `modloop plugin disable <plugin> [--scope]`: `enabledPlugins[id] = false`, which a session honours in any workspace. */
export const disable = toggle(false)
