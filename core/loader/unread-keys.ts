import type { ModHost } from '../mod/host.js'
import type { Layer } from './types.js'

/** Config keys no part of core reads: the mod named here does, when it is loaded. */
const READERS = { hooks: 'shell-hooks', permissions: 'permissions' } as const

/** A config key set in these files whose reading mod was not loaded. */
export interface UnreadKey { key: keyof typeof READERS; mod: string; files: string[] }

/** The config keys the distribution sets, with the mod each needs and the files that set it. */
export function keysNeedingMods(layers: readonly Layer[]): UnreadKey[] {
  return (Object.keys(READERS) as (keyof typeof READERS)[]).flatMap((key) => {
    const files = layers.filter((l) => l.config[key] !== undefined && Object.keys(l.config[key] ?? {}).length > 0).map((l) => l.file ?? l.origin.label)
    return files.length > 0 ? [{ key, mod: READERS[key], files }] : []
  })
}

/**
 * Warnings for config keys that would do nothing: `hooks` without the shell-hooks mod, or
 * `permissions` without the permissions mod (a config with no `extends` and its own short mod
 * list). Asked once every mod is added, so mods a caller adds after the config count.
 */
export function unreadKeyWarnings(keys: readonly UnreadKey[], host: ModHost): string[] {
  const loaded = new Set(host.list().filter((m) => m.status === 'loaded').map((m) => m.name))
  return keys.filter((k) => !loaded.has(k.mod)).map((k) =>
    `${k.files.join(', ')}: "${k.key}" is set, but the ${k.mod} mod that reads it is not loaded, so it does nothing (add "${k.mod}" to mods, or extend the default distribution)`)
}
