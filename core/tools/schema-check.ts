import type { Ajv as AjvClass } from 'ajv'

/** A compiled JSON Schema: `check` answers undefined when the value fits, else why it does not. */
export interface SchemaCheck {
  check(value: unknown): string | undefined
}

/**
 * Compiles the query's schema with Ajv. `format` is an annotation only (spec loop-and-sdk §3.8),
 * and unknown keywords are tolerated, so a schema written for another validator still loads.
 * Throws when the schema itself is malformed, with Ajv's reason.
 */
export async function compileSchema(schema: Record<string, unknown>): Promise<SchemaCheck> {
  const Ajv = ajvClass(await import('ajv'))
  const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false })
  const validate = ajv.compile(schema)
  return {
    check(value) {
      if (validate(value)) return undefined
      return ajv.errorsText(validate.errors, { dataVar: 'input', separator: '\n' })
    },
  }
}

/** ajv is CommonJS: Node's loader names the class `Ajv`; a bundler may put it under `default` instead. */
function ajvClass(ns: unknown): typeof AjvClass {
  const m = ns as { Ajv?: unknown; default?: { Ajv?: unknown; default?: unknown } | unknown }
  const d = m.default as { Ajv?: unknown; default?: unknown } | undefined
  const found = [m.Ajv, d?.Ajv, d?.default, d].find((c) => typeof c === 'function')
  return found as typeof AjvClass
}
