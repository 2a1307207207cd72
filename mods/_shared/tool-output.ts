import type { z } from 'zod'
import type { ModApi } from '../../core/mod/api.js'
import { onFirstUse } from '../../core/on-first-use.js'

/**
 * A tool's output shape, published by the mod that owns the tool so that others replacing its
 * result (a PostToolUse hook's `updatedToolOutput`, spec §2.12) can check a value against it and
 * render it the way the tool renders its own results.
 */
export interface ToolOutputShape {
  /** The value as the tool's result, or undefined when it does not fit the tool's output. */
  parse(value: unknown): unknown
  /** The text the model reads for a result of this shape. */
  text(result: unknown): string
}

/**
 * The shape of a tool whose results fit `schema`, read as `text` renders them. `schema` builds it,
 * once, at the first value checked: only a hook that replaces a result needs it, so a run without
 * one builds none.
 */
export function outputShape<S extends z.ZodType>(schema: () => S, text: (result: z.output<S>) => string): ToolOutputShape {
  const built = onFirstUse(schema)
  return {
    parse: (value) => {
      const r = built().safeParse(value)
      return r.success ? r.data : undefined
    },
    text: (result) => text(result as z.output<S>),
  }
}

declare module '../../core/mod/capabilities.js' {
  interface Capabilities {
    /** A tool's output shape, provided by the mod that owns the tool as `toolOutput.<Tool>`; used as `toolOutput.*`. */
    [tool: `toolOutput.${string}`]: ToolOutputShape
  }
}

/** Called by the mod that owns the tool, which declares `provides: ['toolOutput.<Tool>']`. */
export function publishToolOutput($: ModApi, tool: string, shape: ToolOutputShape): void {
  $.capability.provide(`toolOutput.${tool}`, shape)
}

/** The shape of a tool's results, for a mod that declares `uses: { 'toolOutput.*': 'optional' }`. */
export function toolOutputShape($: ModApi, tool: string): ToolOutputShape | undefined {
  return $.capability.use(`toolOutput.${tool}`)
}
