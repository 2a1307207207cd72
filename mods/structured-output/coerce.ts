type Schema = Record<string, unknown>

const NUMBER = /^-?\d+(\.\d+)?$/

/** The JSON types a property's schema takes: its `type`, and those of its anyOf / oneOf branches. */
function typesOf(schema: unknown): Set<string> {
  const types = new Set<string>()
  if (typeof schema !== 'object' || schema === null) return types
  const s = schema as Schema
  for (const t of [s.type].flat()) if (typeof t === 'string') types.add(t)
  for (const branch of [s.anyOf, s.oneOf].flat()) for (const t of typesOf(branch)) types.add(t)
  return types
}

/**
 * The answer with its top-level strings read as the number or boolean their property asks for
 * (`"42"` → 42, `"true"` → true), as Claude Code reads a model's StructuredOutput call: models
 * often quote them. Only plain decimals and exact `true`/`false`; a property that takes strings,
 * nested values and anything else are left as they are, for the schema check to judge.
 */
export function coerceTopLevel(schema: Schema, input: unknown): unknown {
  const properties = schema.properties
  if (typeof input !== 'object' || input === null || Array.isArray(input) || typeof properties !== 'object' || properties === null) return input
  let out: Record<string, unknown> | undefined
  for (const [key, value] of Object.entries(input)) {
    if (typeof value !== 'string') continue
    const types = typesOf((properties as Schema)[key])
    if (types.has('string')) continue
    const read = (types.has('number') || types.has('integer')) && NUMBER.test(value) ? Number(value)
      : types.has('boolean') && (value === 'true' || value === 'false') ? value === 'true'
        : undefined
    if (read !== undefined) (out ??= { ...input })[key] = read
  }
  return out ?? input
}
