import type { Distribution } from '../core/loader/types.js'
import type { Io } from './io.js'
import { pluginDirSpecs } from './plugin-dirs.js'
import type { OptionSpecs, Values } from './command.js'

/** The options of every command that loads a distribution. */
export const LOAD_OPTIONS = {
  config: { type: 'string' },
  mod: { type: 'string', multiple: true },
  'plugin-dir': { type: 'string', multiple: true },
  'strict-mods': { type: 'boolean' },
} as const satisfies OptionSpecs

export const LOAD_USAGE = '[--config PATH] [--mod SPEC]... [--plugin-dir DIR]... [--strict-mods]'

/** Loads the distribution the command line names and binds its host. */
export async function loadFromArgs(values: Values, io: Io): Promise<Distribution> {
  const { loadDistribution } = await import('../entry.js')
  const dist = await loadDistribution({
    cwd: io.cwd,
    configPath: typeof values.config === 'string' ? values.config : undefined,
    extraMods: [...(Array.isArray(values.mod) ? values.mod.map(String) : []), ...pluginDirSpecs(values, io.cwd)],
    strict: values['strict-mods'] === true,
  })
  dist.host.bind()
  return dist
}
