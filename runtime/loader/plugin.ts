import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { PluginPaths } from './types.js'

/**
 * A plugin directory (Claude Code's layout), read but not yet imported: what the loader needs of
 * it. Reading the layout — the manifest, hooks files, component paths, userConfig — is a
 * compatibility feature, so it is handed in (`Builtins.readPlugin`), not the loader's own.
 */
export interface PluginDir {
  root: string
  manifest: { name: string; version?: string; description?: string }
  /** Absolute paths of the hooks modules, in the order the hooks files list them. */
  modules: string[]
  /** Settings hooks the plugin ships, each with the file (or manifest field) it came from. */
  hooks: { source: string; hooks: Record<string, unknown[]> }[]
  /** Where the manifest puts the plugin's parts. */
  paths: PluginPaths
  /** What could not be read, naming the file; the rest of the plugin loads. */
  warnings: string[]
  /** Its options: the manifest's defaults under what the config gives; a bad value throws MODLOOP_ERR_MOD_OPTIONS naming the field. */
  optionsFor(given: Record<string, unknown> | undefined): Record<string, unknown>
}

export type PluginReader = (root: string) => Promise<PluginDir>

export const MANIFEST = join('.claude-plugin', 'plugin.json')

export function isPluginDir(dir: string): boolean {
  return existsSync(join(dir, MANIFEST))
}

/** The mod name of a plugin's i-th module: the plugin's name, then `<plugin>:<basename>` for the others. */
export function pluginModName(plugin: PluginDir, index: number): string {
  if (index === 0) return plugin.manifest.name
  const base = plugin.modules[index]!.split(/[\\/]/).pop()!.replace(/\.[cm]?[jt]sx?$/, '')
  return `${plugin.manifest.name}:${base}`
}
