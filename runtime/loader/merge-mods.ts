import { resolve } from 'node:path'
import { describeError, ModloopError } from '../../core/errors.js'
import type { ModEntry } from './config-schema.js'
import { loadTarget, type LoadedUnit } from './load-target.js'
import { isPathSpec, resolveSpec } from './resolve-spec.js'
import type { Builtins, Layer, Origin } from './types.js'

/** One place in the merged mods list: a specifier, its options, and what it loaded. */
export interface Slot {
  spec: string
  /** The spec as a comparable key: an absolute path for path specs, else the spec itself. */
  key: string
  options?: Record<string, unknown>
  /** The config that introduced or last re-configured the entry. */
  from: Origin
  unit: LoadedUnit
}

interface Entry {
  spec: string
  key: string
  options?: Record<string, unknown>
  enabled: boolean
}

export interface MergedMods {
  slots: Slot[]
  /** Errors that belong to no surviving slot (duplicates within one config). */
  errors: ModloopError[]
  /** Entries that change nothing and look like mistakes: disabling a mod no one could load (a typo). */
  warnings: string[]
}

/**
 * Merges the layers' `mods` lists, ancestor first, loading each new entry to learn its mod names.
 * Merge rule: an entry that names an earlier entry — by the same specifier, or by the name of a
 * mod that entry loaded — re-configures it in place (its options replace the old ones when given)
 * or, with `enabled: false`, removes it. An entry that loads a mod of an earlier layer's name takes
 * that place. Two entries of one config naming the same mod → MODLOOP_ERR_MOD_DUPLICATE.
 */
export async function mergeMods(layers: readonly Layer[], builtins: Builtins): Promise<MergedMods> {
  const slots: Slot[] = []
  const errors: ModloopError[] = []
  const warnings: string[] = []
  for (const layer of layers) {
    const origin = layer.origin
    const entries = (layer.config.mods ?? []).map((e) => normalize(e, origin))
    const matchOf = (e: Entry) => slots.find((s) => s.key === e.key || namesOf(s).includes(e.spec))
    // Start every load this layer needs at once; apply the results in the order written.
    const loads = entries.map((e) => (e.enabled && !matchOf(e) ? load(e.spec, origin, builtins) : undefined))
    const touched = new Set<Slot>()
    const duplicate = (e: Entry, earlier: Slot, name: string) => errors.push(new ModloopError('MODLOOP_ERR_MOD_DUPLICATE',
      `${name}: listed twice in ${origin.label} ("${earlier.spec}" and "${e.spec}")`, { mod: name, file: origin.file, stage: 'register' }))

    for (const [i, e] of entries.entries()) {
      const match = matchOf(e)
      if (match) {
        if (touched.has(match)) {
          duplicate(e, match, namesOf(match)[0] ?? e.spec)
          continue
        }
        if (!e.enabled) {
          slots.splice(slots.indexOf(match), 1)
          continue
        }
        touched.add(match)
        if (e.options !== undefined) match.options = e.options
        match.from = origin
        continue
      }
      // Disabling what is not loaded is not an error: a child may turn off a mod some parent dropped.
      // But a name that resolves to no mod at all is most likely a typo, which would leave the mod on.
      if (!e.enabled) {
        if (!(await resolves(e.spec, origin, builtins))) warnings.push(`${origin.label}: the mods entry { "name": "${e.spec}", "enabled": false } names no known mod; nothing was disabled`)
        continue
      }
      const pending = loads[i] ?? load(e.spec, origin, builtins)
      const slot: Slot = { spec: e.spec, key: e.key, options: e.options, from: origin, unit: await pending }
      const names = namesOf(slot)
      const clash = slots.find((s) => namesOf(s).some((n) => names.includes(n)))
      if (clash && touched.has(clash)) {
        duplicate(e, clash, names.find((n) => namesOf(clash).includes(n))!)
        continue
      }
      touched.add(slot)
      if (clash) {
        slot.options ??= clash.options
        slots.splice(slots.indexOf(clash), 1, slot)
      } else {
        slots.push(slot)
      }
    }
  }
  return { slots, errors, warnings }
}

async function resolves(spec: string, origin: Origin, builtins: Builtins): Promise<boolean> {
  return resolveSpec(spec, origin, builtins).then(() => true, () => false)
}

// Never rejects: a load started for an entry that turns out to be a duplicate is never awaited.
async function load(spec: string, origin: Origin, builtins: Builtins): Promise<LoadedUnit> {
  try {
    return await loadTarget(await resolveSpec(spec, origin, builtins), builtins.readPlugin)
  } catch (err) {
    const error = err instanceof ModloopError ? err : new ModloopError('MODLOOP_ERR_MOD_RESOLVE',
      `mod "${spec}" could not be resolved from ${origin.dir} (named in ${origin.label}): ${describeError(err)}`,
      { file: origin.file, stage: 'resolve', cause: err })
    return { mods: [], hooks: [], errors: [error] }
  }
}

function normalize(entry: ModEntry, origin: Origin): Entry {
  const e = typeof entry === 'string' ? { spec: entry, enabled: true }
    : Array.isArray(entry) ? { spec: entry[0], options: entry[1], enabled: true }
    : { spec: entry.name, options: entry.options, enabled: entry.enabled ?? true }
  return { ...e, key: isPathSpec(e.spec) ? resolve(origin.dir, e.spec) : e.spec }
}

function namesOf(slot: Slot): string[] {
  return slot.unit.mods.map((m) => m.def.name)
}
