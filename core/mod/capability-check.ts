import { ModloopError } from '../errors.js'
import type { ModDefinition } from './define.js'

interface Declaring { name: string; source?: string; def: Pick<ModDefinition, 'provides' | 'uses'> }

/**
 * What breaks the capability declarations of the loaded mods, in load order: a capability two mods
 * provide (the later one is at fault), or one a mod requires that no loaded mod provides. `known`
 * names the mod that normally provides a capability, for the message.
 */
export function capabilityErrors(mods: readonly Declaring[], known: ReadonlyMap<string, string>): { mod: string; error: ModloopError }[] {
  const providers = new Map<string, string>()
  const errors: { mod: string; error: ModloopError }[] = []
  for (const m of mods) {
    for (const name of m.def.provides ?? []) {
      const first = providers.get(name)
      if (first === undefined) providers.set(name, m.name)
      else errors.push({ mod: m.name, error: new ModloopError('MODLOOP_ERR_CAPABILITY', `${m.name}: provides the "${name}" capability, which ${first} already provides; disable one of them`, { mod: m.name, field: name, file: m.source, stage: 'dependency' }) })
    }
  }
  for (const m of mods) {
    for (const [name, use] of Object.entries(m.def.uses ?? {})) {
      if (use !== 'required' || providers.has(name)) continue
      const usual = known.get(name)
      const hint = usual ? ` (the ${usual} mod provides it normally: load it, or a mod that provides "${name}")` : ' (load a mod that provides it)'
      errors.push({ mod: m.name, error: new ModloopError('MODLOOP_ERR_CAPABILITY_MISSING', `${m.name}: uses the "${name}" capability, which no loaded mod provides${hint}`, { mod: m.name, field: name, file: m.source, stage: 'dependency' }) })
    }
  }
  return errors
}
