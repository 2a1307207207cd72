import type { QueryOptions } from '../runtime/options.js'
import { EFFORT_LEVELS, type EffortLevel } from '../core/model/capabilities.js'
import type { Values } from './command.js'
import { readJsonArg } from './json-arg.js'
import { usageError } from './usage-error.js'

const THINKING = ['adaptive', 'enabled', 'disabled'] as const

/**
 * `--effort`, `--thinking`, `--max-thinking-tokens` and `--json-schema <file|json>` as query options.
 * An effort level is read in any case; an unknown one is warned about and the default kept, as
 * Claude Code does (the run goes on), where the other flags' bad values stop it.
 */
export function reasoningOptions(values: Values, cwd: string, warn: (line: string) => void): Pick<QueryOptions, 'effort' | 'thinking' | 'maxThinkingTokens' | 'outputFormat'> {
  const out: Pick<QueryOptions, 'effort' | 'thinking' | 'maxThinkingTokens' | 'outputFormat'> = {}
  const effort = values.effort
  if (typeof effort === 'string') {
    const level = effort.toLowerCase()
    if ((EFFORT_LEVELS as readonly string[]).includes(level)) out.effort = level as EffortLevel
    else warn(`unknown --effort value "${effort}": it is ignored and the default effort used; the levels are ${EFFORT_LEVELS.join(', ')}`)
  }
  const budget = values['max-thinking-tokens']
  if (typeof budget === 'string') {
    const n = Number(budget)
    if (!Number.isInteger(n) || n < 0) throw usageError(`--max-thinking-tokens takes a whole number of tokens (0 turns thinking off), not "${budget}"`)
    out.maxThinkingTokens = n
  }
  const thinking = values.thinking
  if (typeof thinking === 'string') {
    if (!(THINKING as readonly string[]).includes(thinking)) throw usageError(`--thinking must be one of ${THINKING.join(', ')}, not "${thinking}"`)
    out.thinking = thinking === 'enabled' ? { type: 'enabled', ...(out.maxThinkingTokens ? { budgetTokens: out.maxThinkingTokens } : {}) } : { type: thinking as 'adaptive' | 'disabled' }
  }
  const schema = values['json-schema']
  if (typeof schema === 'string') out.outputFormat = { type: 'json_schema', schema: readSchema(schema, cwd) }
  return out
}

/** A JSON text (it starts with `{`) or a file holding one, resolved from `cwd`. */
function readSchema(value: string, cwd: string): Record<string, unknown> {
  const { json, where } = readJsonArg('--json-schema', value, cwd)
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw usageError(`--json-schema: ${where} must hold a JSON Schema object`)
  // The schema is the StructuredOutput tool's input, which the Messages API takes only as an object.
  const type = (json as { type?: unknown }).type
  if (type !== 'object') throw usageError(`--json-schema: ${where} must describe an object (type: "object"), not ${JSON.stringify(type) ?? 'a schema without a type'}`)
  return json as Record<string, unknown>
}
