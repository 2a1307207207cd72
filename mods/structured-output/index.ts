import { z } from 'zod'
import { onFirstUse } from '../../core/on-first-use.js'
import type { ToolRegistration } from '../../core/mod/contracts.js'
import type { ModApi } from '../../core/mod/api.js'
import { defineMod } from '../../core/mod/define.js'
import type { ToolContext, ToolOutput } from '../../core/tools/tool.js'
import type { TurnEnding } from '../../core/events/types.js'
import { compileSchema, type SchemaCheck } from '../../core/tools/schema-check.js'
import { describeError } from '../../core/errors.js'
import { coerceTopLevel } from './coerce.js'
import { builtinOptions } from '../_shared/builtin-options.js'

export const TOOL_NAME = 'StructuredOutput'
/** Retries the model gets after a wrong or missing call (spec: MAX_STRUCTURED_OUTPUT_RETRIES, default 5). */
export const MAX_STRUCTURED_OUTPUT_RETRIES = 5

const options = builtinOptions('structured-output', () => z.object({
  /** Overrides MAX_STRUCTURED_OUTPUT_RETRIES. */
  maxRetries: z.number().int().min(0).optional(),
}))

// Built on first use: only a run given an outputFormat (--json-schema) reads one.
const outputFormat = onFirstUse(() => z.object({
  type: z.literal('json_schema'),
  schema: z.record(z.string(), z.unknown()).refine((s) => s.type === 'object', { message: 'must describe an object (type: "object"): it is the input of a tool', path: ['type'] }),
}))

const DESCRIPTION = `Gives your final answer in the structured form this session requires. Call it exactly once, when the work is done, with input that fits its schema; the turn ends on a successful call. If the call is refused, read why, fix the input and call it again.`
const NUDGE = `You must give your final answer by calling the ${TOOL_NAME} tool with input that fits its schema. Call it now.`

interface TurnState {
  schema: Record<string, unknown>
  check: SchemaCheck
  max: number
  failures: number
  done: boolean
}

const exhausted = (max: number, why: string): TurnEnding => ({
  error: {
    subtype: 'error_max_structured_output_retries', terminal: 'structured_output_retry_exhausted',
    message: `Failed to provide valid structured output after ${max + 1} attempts: ${why}`,
  },
})

/**
 * Structured output (`outputFormat` / `--json-schema`): a StructuredOutput tool whose input is the
 * caller's JSON Schema, validated with Ajv. A wrong call is refused with the reasons, an answer
 * without the call is nudged to make it, and both count against the retries; the turn ends on
 * the first valid call, with its input as the result's `structured_output`.
 */
export default defineMod({
  name: 'structured-output',
  description: 'The StructuredOutput tool for outputFormat / --json-schema',
  options,
  register(on, opts) {
    const sessions = new Map<string, TurnState>()

    on('session.start', async ($, e, next) => {
      const flags = (await $.settings.read({ source: 'flag' })) as { outputFormat?: unknown }
      if (flags.outputFormat === undefined) return next(e)
      const parsed = outputFormat().safeParse(flags.outputFormat)
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!
        $.log.error(`outputFormat.${issue.path.join('.')}: ${issue.message}; structured output is off`)
        return next(e)
      }
      let check: SchemaCheck
      try {
        check = await compileSchema(parsed.data.schema)
      } catch (err) {
        $.log.error(`outputFormat.schema is not a valid JSON Schema: ${describeError(err)}; structured output is off`)
        return next(e)
      }
      const state: TurnState = { schema: parsed.data.schema, check, max: maxRetries(opts.maxRetries, $), failures: 0, done: false }
      sessions.set(e.sessionId, state)
      const register = $.tool.register as unknown as (spec: ToolRegistration) => Promise<{ tool: string }>
      await register({
        name: TOOL_NAME, description: DESCRIPTION, inputSchema: parsed.data.schema, isReadOnly: true, traits: { mainThreadOnly: true, external: true },
        call: (input: unknown, ctx: ToolContext) => call(state, input, ctx),
      })
      return next(e)
    })

    on('turn.start', ($, e, next) => {
      const state = sessions.get($.session.id() as string)
      if (state) Object.assign(state, { failures: 0, done: false })
      return next(e)
    })

    // Stop hooks beneath decide first; only a turn that would really end without the call is nudged.
    on('turn.stop', async ($, e, next) => {
      const r = await next(e)
      const state = sessions.get($.session.id() as string)
      if (!state || state.done || e.agentId || r.decision !== 'stop') return r
      state.failures++
      if (state.failures > state.max) return { decision: 'halt', reason: 'structured output retries exhausted', ending: exhausted(state.max, `the model answered without calling ${TOOL_NAME}`) }
      return { decision: 'continue', reason: NUDGE }
    })

    on('session.end', (_$, e, next) => {
      sessions.delete(e.sessionId)
      return next(e)
    })
  },
})

function call(state: TurnState, given: unknown, ctx: ToolContext): ToolOutput {
  const refuse = (text: string, endTurn?: TurnEnding): ToolOutput => ({ result: text, text, isError: true, ...(endTurn ? { endTurn } : {}) })
  if (ctx.agentId) return refuse(`${TOOL_NAME} gives the main agent's final answer; a subagent reports in plain text instead.`)
  if (state.done) return refuse(`${TOOL_NAME} was already called successfully in this turn; it takes one answer.`)
  const input = coerceTopLevel(state.schema, given)
  const why = state.check.check(input)
  if (why === undefined) {
    state.done = true
    return { result: input, text: 'Structured output provided successfully.', endTurn: { structuredOutput: input } }
  }
  state.failures++
  const text = `The input does not match the required schema:\n${why}`
  if (state.failures > state.max) return refuse(text, exhausted(state.max, why))
  return refuse(`${text}\nCall ${TOOL_NAME} again with input that fits the schema.`)
}

function maxRetries(option: number | undefined, $: ModApi): number {
  if (option !== undefined) return option
  const raw = $.env.get('MAX_STRUCTURED_OUTPUT_RETRIES')
  const n = raw === undefined || raw.trim() === '' ? NaN : Number(raw)
  return Number.isInteger(n) && n >= 0 ? n : MAX_STRUCTURED_OUTPUT_RETRIES
}
