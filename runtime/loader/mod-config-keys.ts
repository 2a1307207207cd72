import { ModloopError } from '../../core/errors.js'
import { onFirstUse } from '../../core/on-first-use.js'
import { configSchema } from './config-schema.js'
import type { Slot } from './merge-mods.js'
import { definitionOf } from './unread-keys.js'
import type { Builtins, Layer } from './types.js'

// The loader's schema is built only when a config file is read.
const loaderKeys = onFirstUse(() => new Set(Object.keys(configSchema().shape)))

/**
 * Splits a config file's top-level keys: those the loader's schema knows, and the others, which
 * belong to whatever mod declares them in its `configKeys` (checked once the mods are imported).
 */
export function splitModKeys(raw: unknown): { known: unknown; extra?: Record<string, unknown> } {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { known: raw }
  const known: Record<string, unknown> = {}
  const extra: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(raw)) (loaderKeys().has(key) ? known : extra)[key] = value
  return Object.keys(extra).length > 0 ? { known, extra } : { known }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * The keys no schema of the loader knows, merged over the layers as records are (the child's
 * value wins; two objects merge shallowly). Each must be declared by a mod of the distribution or
 * a built-in left out of it; one that none declares is a typo → MODLOOP_ERR_CONFIG_KEY naming the
 * first file that sets it. When some mod failed to load, that mod may be the one that reads the
 * key, so it is a warning instead, and the load error says the rest.
 */
export async function modConfigKeys(layers: readonly Layer[], slots: readonly Slot[], builtins: Builtins, someFailed: boolean): Promise<{ values: Record<string, unknown>; warnings: string[] }> {
  const values: Record<string, unknown> = {}
  const firstFile = new Map<string, string>()
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer.extra ?? {})) {
      if (!firstFile.has(key)) firstFile.set(key, layer.file ?? layer.origin.label)
      values[key] = isRecord(values[key]) && isRecord(value) ? { ...values[key], ...value } : value
    }
  }
  const warnings: string[] = []
  if (firstFile.size === 0) return { values, warnings }
  const declared = new Set(slots.flatMap((s) => s.unit.mods.flatMap((m) => Object.keys(m.def.configKeys ?? {}))))
  let undeclared = [...firstFile.keys()].filter((k) => !declared.has(k))
  // A built-in left out may read it: then it is a key that does nothing here, which the unread-key warning reports.
  if (undeclared.length > 0) {
    for (const load of Object.values(builtins.mods)) {
      const def = definitionOf(await load().catch(() => undefined))
      for (const key of Object.keys(def?.configKeys ?? {})) declared.add(key)
    }
    undeclared = undeclared.filter((k) => !declared.has(k))
  }
  for (const key of undeclared) {
    const file = firstFile.get(key)!
    if (someFailed) {
      warnings.push(`${file}: "${key}" is set, but no loaded mod declares it reads that key (in its configKeys), so it does nothing`)
      continue
    }
    throw new ModloopError('MODLOOP_ERR_CONFIG_KEY', `${file}: unknown key "${key}" (no mod of this distribution declares it in its configKeys)`, { file, field: key, stage: 'config' })
  }
  return { values, warnings }
}
