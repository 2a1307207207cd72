import type { z } from 'zod'
import { onFirstUse } from '../../core/on-first-use.js'
import { BUILTIN_INPUT_SCHEMAS } from './builtin-input-schemas.js'

/**
 * Built-in tools' input schemas whose JSON Schema the repository keeps converted
 * (builtin-input-schemas.ts, written by `node scripts/tool-schemas.mjs` from these very schemas):
 * zod's conversion of the default tools' schemas was ~3% of a cold one-turn run's instructions,
 * paid at every start for the same answer. With it kept, a tool's zod schema is needed only to
 * validate a call, so a declaration is the function that builds it on first use (building the ~30
 * at load was ~300 of a one-turn run's zod schemas). Kept by the declaration, not the tool's name,
 * so a variant made at run time (`.omit`, `.extend`) is not matched and is converted as any other.
 * test/tools/builtin-input.test.ts fails when the kept JSON and a schema differ.
 */
export type BuiltinInput<S extends z.ZodType> = () => S

const declared = new Map<string, BuiltinInput<z.ZodType>>()
const kept = new WeakMap<BuiltinInput<z.ZodType>, string>()

/** Declares a built-in tool's input schema under `key`: answers the function that builds it, once. */
export function builtinInput<S extends z.ZodType>(key: string, build: () => S): BuiltinInput<S> {
  const input = onFirstUse(build)
  declared.set(key, input)
  const json = BUILTIN_INPUT_SCHEMAS[key]
  if (json !== undefined) kept.set(input, json)
  return input
}

/** The JSON Schema kept for a declared input, parsed anew for each caller (a session may change its copy); undefined when none is. */
export function keptJsonSchema(input: BuiltinInput<z.ZodType> | undefined): Record<string, unknown> | undefined {
  const json = input === undefined ? undefined : kept.get(input)
  return json === undefined ? undefined : (JSON.parse(json) as Record<string, unknown>)
}

/** The inputs declared by the modules imported so far, by key: what the generator converts and the test checks. */
export function declaredInputs(): ReadonlyMap<string, BuiltinInput<z.ZodType>> {
  return declared
}
