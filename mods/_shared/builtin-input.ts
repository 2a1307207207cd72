import type { z } from 'zod'
import { BUILTIN_INPUT_SCHEMAS } from './builtin-input-schemas.js'

/**
 * Built-in tools' input schemas whose JSON Schema the repository keeps converted
 * (builtin-input-schemas.ts, written by `node scripts/tool-schemas.mjs` from these very objects):
 * zod's conversion of the default tools' schemas was ~3% of a cold one-turn run's instructions,
 * paid at every start for the same answer. Kept by the schema object, not the tool's name, so a
 * variant made at run time (`.omit`, `.extend`) is not matched and is converted as any other.
 * test/tools/builtin-input.test.ts fails when the kept JSON and a schema differ.
 */
const declared = new Map<string, z.ZodType>()
const kept = new WeakMap<z.ZodType, string>()

/** Declares a built-in tool's module-level input schema under `key`; answers the schema itself. */
export function builtinInput<S extends z.ZodType>(key: string, schema: S): S {
  declared.set(key, schema)
  const json = BUILTIN_INPUT_SCHEMAS[key]
  if (json !== undefined) kept.set(schema, json)
  return schema
}

/** The JSON Schema kept for `schema`, parsed anew for each caller (a session may change its copy); undefined when none is. */
export function keptJsonSchema(schema: z.ZodType | undefined): Record<string, unknown> | undefined {
  const json = schema === undefined ? undefined : kept.get(schema)
  return json === undefined ? undefined : (JSON.parse(json) as Record<string, unknown>)
}

/** The schemas declared by the modules imported so far, by key: what the generator converts and the test checks. */
export function declaredInputs(): ReadonlyMap<string, z.ZodType> {
  return declared
}
