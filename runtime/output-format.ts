import { ModloopError, describeError } from '../core/errors.js'
import { compileSchema } from '../core/tools/schema-check.js'

/**
 * Checks `outputFormat` at the query() edge: `{ type: 'json_schema', schema }` where the schema
 * describes an object — it becomes the input schema of the StructuredOutput tool, and the
 * Messages API takes only object-rooted tool input — and compiles. Anything else is a usage
 * error naming the field, so a bad schema fails the run instead of quietly turning structured
 * output off.
 */
export async function outputFormatError(format: unknown): Promise<ModloopError | undefined> {
  const fail = (field: string, why: string) => new ModloopError('MODLOOP_ERR_USAGE', `${field}: ${why}`, { field })
  const f = format as { type?: unknown; schema?: unknown } | null
  if (typeof f !== 'object' || f === null || Array.isArray(f)) return fail('outputFormat', 'must be { type: "json_schema", schema }')
  if (f.type !== 'json_schema') return fail('outputFormat.type', `must be "json_schema", not ${JSON.stringify(f.type)}`)
  const schema = f.schema as Record<string, unknown> | undefined
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return fail('outputFormat.schema', 'must be a JSON Schema object')
  if (schema.type !== 'object') return fail('outputFormat.schema.type', `must be "object" (the schema is the input of the StructuredOutput tool), not ${JSON.stringify(schema.type)}`)
  try {
    await compileSchema(schema)
  } catch (err) {
    return fail('outputFormat.schema', `not a valid JSON Schema: ${describeError(err)}`)
  }
  return undefined
}
