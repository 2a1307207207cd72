import { ModloopError } from '../errors.js'

/**
 * The named APIs one mod provides and others use. Each capability's type is declared once, by
 * declaration merging on this interface, next to the code that defines it:
 *
 *   declare module '…/core/mod/capabilities.js' { interface Capabilities { greeter: GreeterApi } }
 *
 * so `$.capability.use('greeter')` is typed `GreeterApi | undefined` wherever it is read.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Capabilities {}

export type CapabilityName = keyof Capabilities & string

/**
 * How a mod uses a capability: its absence at bind drops the mod (required), or its code copes
 * (optional). A use named `family.*` covers every capability of that family, and is optional.
 */
export type CapabilityUse = 'required' | 'optional'
export type CapabilityUses = { readonly [N in CapabilityName]?: CapabilityUse }

/** `$.capability`: what a mod publishes for others and reads from them, as declared in its definition. */
export interface CapabilityApi {
  /** Publishes (or replaces) a capability this mod declared in `provides`. */
  provide<N extends CapabilityName>(name: N, value: Capabilities[N]): void
  /** A capability this mod declared in `uses` (or `provides`): undefined until its provider published it. */
  use<N extends CapabilityName>(name: N): Capabilities[N] | undefined
}

/** What a mod declares about capabilities, as the host reads it from its definition. */
export interface CapabilityDeclarations {
  provides?: readonly string[]
  uses?: Readonly<Record<string, CapabilityUse | undefined>>
}

/** The capabilities of one host: their values, and which mod may publish each. */
export class CapabilityStore {
  private readonly values = new Map<string, { owner: string; value: unknown }>()

  /** The value published under `name`, by whichever mod (or part of the host) provides it. */
  get<N extends CapabilityName>(name: N): Capabilities[N] | undefined {
    return this.values.get(name)?.value as Capabilities[N] | undefined
  }

  /** Who published `name`, if anyone did. */
  owner(name: string): string | undefined {
    return this.values.get(name)?.owner
  }

  /** Publishes a value; `owner` is a mod, or the part of the host that provides it (the loader). */
  set(owner: string, name: string, value: unknown): void {
    const held = this.values.get(name)
    if (held && held.owner !== owner) {
      throw new ModloopError('MODLOOP_ERR_CAPABILITY', `${owner}: the "${name}" capability is already provided by ${held.owner}`, { mod: owner, field: name })
    }
    this.values.set(name, { owner, value })
  }

  /** Forgets what a disposed mod published, so its users see it gone. */
  dropOwner(owner: string): void {
    for (const [name, held] of this.values) if (held.owner === owner) this.values.delete(name)
  }
}

/** One mod's `$.capability`, held to what its definition declares. */
export function capabilityApi(mod: string, declared: CapabilityDeclarations, store: CapabilityStore): CapabilityApi {
  const provides = new Set(declared.provides ?? [])
  const uses = new Set([...Object.keys(declared.uses ?? {}), ...provides])
  // `family.*` covers every capability named `family.<something>` (one per tool, say).
  const families = [...uses].filter((u) => u.endsWith('.*')).map((u) => u.slice(0, -1))
  const covers = (name: string) => uses.has(name) || families.some((f) => name.startsWith(f))
  return Object.freeze({
    provide: (name: string, value: unknown) => {
      if (!provides.has(name)) {
        throw new ModloopError('MODLOOP_ERR_CAPABILITY', `${mod}: $.capability.provide("${name}") needs "${name}" in the mod's provides`, { mod, field: name })
      }
      store.set(mod, name, value)
    },
    use: (name: string) => {
      if (!covers(name)) {
        throw new ModloopError('MODLOOP_ERR_CAPABILITY', `${mod}: $.capability.use("${name}") needs "${name}" in the mod's uses (required or optional)`, { mod, field: name })
      }
      return store.get(name as CapabilityName)
    },
  }) as CapabilityApi
}
