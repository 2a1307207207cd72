import type { ModDefinition } from '../../core/mod/define.js'
import type { ModHost } from '../../core/mod/host.js'
import type { Layer } from './types.js'

/** A config key set in these files, with the mod that normally reads it (from the mods' `configKeys`). */
export interface UnreadKey { key: string; mod: string; files: string[] }

const isSet = (v: unknown) => v !== undefined && v !== null && (typeof v !== 'object' || Object.keys(v).length > 0)

/** The keys the layers set that some mod the host knows of declares it reads, with the files that set each. */
export function keysNeedingMods(layers: readonly Layer[], host: ModHost): UnreadKey[] {
  const valueIn = (l: Layer, k: string) => (l.config as Record<string, unknown>)[k] ?? l.extra?.[k]
  const keys = new Set(layers.flatMap((l) => [...Object.keys(l.config), ...Object.keys(l.extra ?? {})].filter((k) => isSet(valueIn(l, k)))))
  return [...keys].flatMap((key) => {
    const mod = host.usual('configKeys', key)
    if (!mod) return []
    const files = layers.filter((l) => isSet(valueIn(l, key))).map((l) => l.file ?? l.origin.label)
    return [{ key, mod, files }]
  })
}

/**
 * Warnings for config keys that would do nothing: set, but no loaded mod declares it reads them
 * (`hooks` without shell-hooks, `permissions` without permissions, …). Asked once every mod is
 * added, so mods a caller adds after the config count.
 */
export function unreadKeyWarnings(keys: readonly UnreadKey[], host: ModHost): string[] {
  const read = new Set(host.list().filter((m) => m.status === 'loaded').flatMap((m) => Object.keys(m.def.configKeys ?? {})))
  return keys.filter((k) => !read.has(k.key)).map((k) =>
    `${k.files.join(', ')}: "${k.key}" is set, but the ${k.mod} mod that reads it is not loaded, so it does nothing (add "${k.mod}" to mods, or extend the default distribution)`)
}

/** The definitions a built-in module exports, for `host.know` (its default export, or a bare register). */
export function definitionOf(ns: unknown): Pick<ModDefinition, 'name' | 'provides' | 'configKeys'> | undefined {
  const d = (ns as { default?: unknown } | undefined)?.default as Partial<ModDefinition> | undefined
  return d && typeof d === 'object' && typeof d.name === 'string' ? { name: d.name, provides: d.provides, configKeys: d.configKeys } : undefined
}
