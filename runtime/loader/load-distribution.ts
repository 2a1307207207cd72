import { resolve } from 'node:path'
import type { ModloopError } from '../../core/errors.js'
import { ModHost } from '../../core/mod/host.js'
import { foldConfigKeys } from '../../core/mod/config-keys.js'
import { collectLayers, defaultLayer } from './extends.js'
import { findConfig, loadConfigRef } from './find-config.js'
import { mergeMods } from './merge-mods.js'
import { modConfigKeys } from './mod-config-keys.js'
import { unknownOptionKeys, unknownOptionsWarning } from './option-keys.js'
import { mergeSettings } from './merge-config.js'
import { definitionOf, keysNeedingMods } from './unread-keys.js'
import { useHostModule } from './jiti.js'
import { enabledPlugins } from '../plugin-store/enabled-plugins.js'
import type { Builtins, Distribution, HookSource, Layer, LoadedPlugin, LoadOptions } from './types.js'

/**
 * Loads a distribution into a host: finds the config (or takes `configPath`), merges its extends
 * chain, resolves and imports every enabled mod, and registers each in order with its options.
 * With no config, the built-in default distribution loads. A config that cannot be read throws
 * (MODLOOP_ERR_CONFIG, _CONFIG_KEY, _EXTENDS); a bad mod is recorded with its stage and file and
 * the others still load — unless `strict`, where the first error throws. The caller binds the host.
 */
export async function loadDistribution(options: LoadOptions): Promise<Distribution> {
  const cwd = resolve(options.cwd)
  const strict = options.strict ?? false
  const given = options.builtins
  useHostModule(given.hostModule)
  const builtins = options.bare ? { ...given, defaultDistribution: [] } : given
  const host = options.host ?? new ModHost({ strict })

  const found = options.bare ? undefined
    : options.configPath !== undefined ? await loadConfigRef(options.configPath, cwd, 'MODLOOP_ERR_CONFIG', options.configLabel ?? '--config')
    : await findConfig(cwd)
  const layers: Layer[] = found ? await collectLayers(found, builtins) : [defaultLayer(builtins, cwd)]
  if (options.extraMods?.length) layers.push({ origin: { dir: cwd, label: '--mod' }, config: { mods: [...options.extraMods] } })
  const enabled = options.settingsPlugins && !options.bare ? await enabledPlugins({ cwd, ...options.settingsPlugins }) : undefined
  // An enabled plugin is a plugin unit as a named directory is; one also named by --plugin-dir loads once, as named.
  const named = new Set((options.extraMods ?? []).map((m) => resolve(cwd, typeof m === 'string' ? m : m[0])))
  const fromSettings = (enabled?.plugins ?? []).filter((p) => !named.has(p.root))
  if (fromSettings.length) layers.push({ origin: { dir: cwd, label: 'enabledPlugins' }, config: { mods: fromSettings.map((p) => p.root) } })
  const idOf = new Map(fromSettings.map((p) => [p.root, p.id]))

  const { hooks: configHooks, ...settings } = mergeSettings(layers)
  const merged = await mergeMods(layers, builtins)
  const someFailed = merged.errors.length > 0 || merged.slots.some((s) => s.unit.errors.length > 0)
  const modKeys = await modConfigKeys(layers, merged.slots, builtins, someFailed)
  const errors: ModloopError[] = []
  const report = (err: ModloopError) => {
    errors.push(err)
    if (strict) throw err
    host.fail(err)
  }

  for (const err of merged.errors) report(err)
  const hooks: HookSource[] = [...configHooks]
  const plugins: LoadedPlugin[] = []
  const warnings = [...(enabled?.warnings ?? []), ...merged.warnings, ...modKeys.warnings]
  // What a mod's declared config keys fold from: the loader's own keys and the mods' keys alike.
  const foldFrom = { ...modKeys.values, ...settings }
  for (const slot of merged.slots) {
    const { unit } = slot
    for (const err of unit.errors) report(err)
    let modOptions = slot.options
    if (unit.plugin) {
      try {
        modOptions = unit.plugin.optionsFor(modOptions)
      } catch (err) {
        report(err as ModloopError)
        continue
      }
    }
    const id = unit.plugin && idOf.get(unit.plugin.root)
    const plugin = unit.plugin && { name: unit.plugin.manifest.name, root: unit.plugin.root, options: modOptions ?? {}, ...(id ? { id } : {}) }
    for (const h of unit.hooks) hooks.push(plugin ? { ...h, plugin } : h)
    if (plugin) {
      const { version } = unit.plugin!.manifest
      plugins.push({ ...plugin, ...(version ? { version } : {}), paths: unit.plugin!.paths })
      warnings.push(...unit.plugin!.warnings)
    }
    for (const mod of unit.mods) {
      const before = host.errors.length
      // The top-level config keys the mod declares it reads fold into its options.
      const options = foldConfigKeys(mod.def.configKeys, modOptions, foldFrom)
      // A plugin's options are its manifest's userConfig, shared by its modules: each reads its own few.
      const unknown = unit.plugin ? [] : unknownOptionKeys(mod.def, options)
      if (unknown.length > 0) warnings.push(unknownOptionsWarning(mod.def.name, unknown, mod.def, slot.from.label))
      await host.add(mod.def, { options, source: mod.source, root: mod.root, attributed: !mod.builtin })
      // The host records options and register failures itself; surface them as this load's too.
      for (const err of host.errors.slice(before)) {
        errors.push(err)
        if (strict) throw err
      }
    }
  }

  await knowLeftOut(host, builtins, layers)
  return {
    host,
    config: {
      files: layers.flatMap((l) => (l.file ? [l.file] : [])),
      mods: merged.slots.map((s) => ({ spec: s.spec, options: s.options, from: s.from.label })),
      hooks,
      ...settings,
    },
    configFile: found?.file,
    hooks,
    plugins,
    errors,
    needsMods: keysNeedingMods(layers, host),
    warnings,
  }
}

/** The config keys the loader, the loop and the entry point (`sessionStore`) read themselves; every other key is some mod's. */
const CORE_KEYS = new Set(['extends', 'mods', 'model', 'env', 'sessionStore'])

/**
 * When a config key is set that no loaded mod reads, or a loaded mod requires a capability no
 * loaded mod provides, the built-ins left out are read (not registered) so the warning or error
 * can name the one that would answer. A distribution without either pays nothing.
 */
async function knowLeftOut(host: ModHost, builtins: Builtins, layers: readonly Layer[]): Promise<void> {
  const loaded = host.list().filter((m) => m.status === 'loaded')
  const read = new Set(loaded.flatMap((m) => Object.keys(m.def.configKeys ?? {})))
  const provided = new Set<string>(loaded.flatMap((m) => m.def.provides ?? []))
  const unread = layers.some((l) => [...Object.keys(l.config), ...Object.keys(l.extra ?? {})].some((k) => !CORE_KEYS.has(k) && !read.has(k)))
  const missing = loaded.some((m) => Object.entries(m.def.uses ?? {}).some(([name, use]) => use === 'required' && !provided.has(name)))
  if (!unread && !missing) return
  const names = new Set(loaded.map((m) => m.name))
  for (const [name, load] of Object.entries(builtins.mods)) {
    if (names.has(name)) continue
    const def = definitionOf(await load().catch(() => undefined))
    if (def) host.know(def)
  }
}
