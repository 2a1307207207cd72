import { describeError, isModloopError, ModloopError } from '../../core/errors.js'
import { modFromModule, type ModDefinition } from '../../core/mod/define.js'
import { importModule } from './import-module.js'
import { pluginModName, type PluginDir, type PluginReader } from './plugin.js'
import type { Target } from './resolve-spec.js'
import type { HookSource } from './types.js'

export interface UnitMod {
  def: ModDefinition
  /** The module file, or `builtin:<name>`. */
  source: string
  root?: string
  /** One of the built-in set handed to the loader (modloop's own code), not a file it imported. */
  builtin?: boolean
}

/** What one specifier loaded: its mods, a plugin's hooks and manifest, and the errors on the way. */
export interface LoadedUnit {
  mods: UnitMod[]
  hooks: HookSource[]
  plugin?: PluginDir
  errors: ModloopError[]
}

/** Imports what a target names and reads each module as a mod; never throws, errors are kept per unit. */
export async function loadTarget(target: Target, readPlugin: PluginReader | undefined): Promise<LoadedUnit> {
  if (target.kind === 'builtin') {
    const source = `builtin:${target.name}`
    try {
      const ns = await target.load()
      return { mods: [{ def: asMod(ns, target.name, source), source, builtin: true }], hooks: [], errors: [] }
    } catch (err) {
      return { mods: [], hooks: [], errors: [toError(err, source, `the built-in mod ${target.name} failed to import: ${describeError(err)}`)] }
    }
  }
  if (target.kind === 'module') {
    try {
      const def = asMod(await importModule(target.file), target.name, target.file)
      def.version ??= target.version
      return single(def, target.file, target.root)
    } catch (err) {
      return { mods: [], hooks: [], errors: [toError(err, target.file)] }
    }
  }
  return loadPlugin(target.root, readPlugin)
}

async function loadPlugin(root: string, readPlugin: PluginReader | undefined): Promise<LoadedUnit> {
  let plugin: PluginDir
  try {
    if (!readPlugin) throw new ModloopError('MODLOOP_ERR_PLUGIN', `${root}: a plugin directory, and this host reads no plugins (import query from the modloop package)`, { file: root, stage: 'resolve' })
    plugin = await readPlugin(root)
  } catch (err) {
    return { mods: [], hooks: [], errors: [toError(err, root)] }
  }
  const unit: LoadedUnit = { mods: [], hooks: plugin.hooks, plugin, errors: [] }
  for (const [i, file] of plugin.modules.entries()) {
    const name = pluginModName(plugin, i)
    try {
      const def = asMod(await importModule(file), name, file)
      // The manifest is the plugin's identity: its name and version win over the module's.
      def.name = name
      def.version = plugin.manifest.version ?? def.version
      def.description ??= plugin.manifest.description
      unit.mods.push({ def, source: file, root })
    } catch (err) {
      unit.errors.push(toError(err, file))
    }
  }
  return unit
}

function single(def: ModDefinition, source: string, root?: string): LoadedUnit {
  return { mods: [{ def, source, root }], hooks: [], errors: [] }
}

function asMod(ns: unknown, fallbackName: string, file: string): ModDefinition {
  const def = ns !== null && (typeof ns === 'object' || typeof ns === 'function')
    ? modFromModule(ns as Record<string, unknown>, fallbackName)
    : undefined
  if (!def) {
    throw new ModloopError('MODLOOP_ERR_MOD_SHAPE', `${file}: not a mod: export \`register(on, options)\` or \`export default defineMod({ name, register })\``, {
      mod: fallbackName, file, stage: 'shape',
    })
  }
  return def
}

function toError(err: unknown, file: string, message?: string): ModloopError {
  if (isModloopError(err)) return err
  return new ModloopError('MODLOOP_ERR_MOD_IMPORT', message ?? `${file}: ${describeError(err)}`, { file, stage: 'import', cause: err })
}
