import type { z } from 'zod'

/**
 * What an options schema makes of no options at all, kept as JSON beside the schema. A mod given
 * no options (every built-in mod of a plain run) then starts from a copy of it, and its schema
 * need not be built: the built-in mods' option schemas were ~500 of the ~580 zod schemas a
 * one-turn run built at start, each for the same answer. Kept by the schema object, so only a
 * declaration the JSON was made from meets it (mods/_shared/builtin-options.ts).
 */
const kept = new WeakMap<z.ZodType, string>()

export function keepDefaults(schema: z.ZodType, json: string): void {
  kept.set(schema, json)
}

/** A fresh copy of what `schema` makes of no options, when `given` is none and that is kept; undefined otherwise. */
export function keptDefaults(schema: z.ZodType | undefined, given: unknown): Record<string, unknown> | undefined {
  const none = typeof given === 'object' && given !== null && !Array.isArray(given) && Object.keys(given).length === 0
  const json = none && schema !== undefined ? kept.get(schema) : undefined
  return json === undefined ? undefined : (JSON.parse(json) as Record<string, unknown>)
}
