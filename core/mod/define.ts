import type { z } from 'zod'
import type { ModApi } from './api.js'
import type { On } from '../bus/types.js'
import type { CapabilityName, CapabilityUses } from './capabilities.js'
import type { ConfigKeys } from './config-keys.js'

export type Teardown = () => void | Promise<void>

/** A mod: a plain object. Options are parsed by `options` (a zod schema) before `register` runs. */
export interface ModDefinition<S extends z.ZodType = z.ZodType<Record<string, unknown>>> {
  name: string
  version?: string
  description?: string
  options?: S
  /** Mods that must be loaded for this one to work; missing or cyclic → coded error. */
  dependsOn?: readonly string[]
  /** The capabilities this mod publishes with `$.capability.provide` (see capabilities.ts). */
  provides?: readonly CapabilityName[]
  /** The capabilities it reads with `$.capability.use`; a required one no loaded mod provides drops it at bind. */
  uses?: CapabilityUses
  /** Top-level config keys this mod reads (`permissions`, `mcpServers`, …), each with how it folds into the options. */
  configKeys?: ConfigKeys
  /** Registration only: call `on`, keep no side effects. `$` works from bind on (e.g. in session.start). */
  register(on: On, options: z.output<S>, $: ModApi): void | Teardown | Promise<void | Teardown>
}

/** The bare form a module may export instead: `export function register(on, options) {}`. */
export type BareRegister = (on: On, options: Record<string, unknown>, $: ModApi) => void | Teardown | Promise<void | Teardown>

export function defineMod<S extends z.ZodType = z.ZodType<Record<string, unknown>>>(mod: ModDefinition<S>): ModDefinition<S> {
  return mod
}

/** Reads a module namespace as a mod: a defineMod default export, or a bare `register`. */
export function modFromModule(ns: Record<string, unknown>, fallbackName: string): ModDefinition | undefined {
  const candidate = (ns.default ?? ns) as Record<string, unknown> | undefined
  if (candidate && typeof candidate === 'object' && typeof candidate.register === 'function') {
    const name = typeof candidate.name === 'string' && candidate.name ? candidate.name : fallbackName
    return { ...(candidate as unknown as ModDefinition), name }
  }
  if (typeof ns.default === 'function') {
    return { name: fallbackName, register: ns.default as BareRegister }
  }
  if (typeof ns.register === 'function') {
    return { name: typeof ns.name === 'string' && ns.name ? ns.name : fallbackName, register: ns.register as BareRegister }
  }
  return undefined
}
