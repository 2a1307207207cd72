import type { z } from 'zod'
import type { ToolRegistration } from '../../core/mod/contracts.js'
import type { ModApi } from '../../core/mod/api.js'
import { INPUT_ON_FIRST_USE, type CoercedInput, type InputPlace, type ToolContext, type ToolOutput, type ToolTraits } from '../../core/tools/tool.js'
import { onFirstUse } from '../../core/on-first-use.js'
import { keptJsonSchema } from './builtin-input.js'

/**
 * A built-in tool: an input schema given as the function that builds it (a declaration made with
 * builtinInput(), or one made at run time, such as a variant of one), and an implementation typed by it.
 */
export interface BuiltinTool<S extends z.ZodType> {
  name: string
  description: string
  input: () => S
  isReadOnly: boolean | ((input: z.output<S>) => boolean)
  resolveInput?(input: z.output<S>, at: InputPlace): z.output<S>
  coerceInput?(input: Record<string, unknown>): CoercedInput | undefined
  aliases?: string[]
  traits?: ToolTraits
  call(input: z.output<S>, ctx: ToolContext): Promise<ToolOutput> | ToolOutput
}

/**
 * Registers a tool that carries its own `call`, so it keeps its plain name. `$.tool.register` is
 * typed for the mod model's schema-only shape; the loop's provider also takes this richer one.
 * The input goes as its builder, built once when first read (builtin-input.ts says why); one
 * declared with builtinInput() goes with its JSON Schema converted ahead of time.
 */
export function registerTool<S extends z.ZodType>($: ModApi, tool: BuiltinTool<S>): Promise<{ tool: string }> {
  const register = $.tool.register as unknown as (spec: ToolRegistration) => Promise<{ tool: string }>
  const { input, ...rest } = tool
  const jsonSchema = keptJsonSchema(input)
  return register({ ...rest, ...(jsonSchema ? { jsonSchema } : {}), [INPUT_ON_FIRST_USE]: onFirstUse(input) } as unknown as ToolRegistration)
}

/** A failed call: the model reads `text`, and hooks see the same text as tool_response. */
export function failure(text: string): ToolOutput {
  return { result: text, text, isError: true }
}
