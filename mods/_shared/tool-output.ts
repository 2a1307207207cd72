import type { z } from 'zod'
import type { ModApi } from '../../core/mod/api.js'

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

/** The shape of a tool whose results fit `schema`, read as `text` renders them. */
export function outputShape<S extends z.ZodType>(schema: S, text: (result: z.output<S>) => string): ToolOutputShape {
  return {
    parse: (value) => {
      const r = schema.safeParse(value)
      return r.success ? r.data : undefined
    },
    text: (result) => text(result as z.output<S>),
  }
}

// A mod writes only its own state: a built-in tool's mod is named after it (Bash → bash, WebFetch → web-fetch).
const ownerOf = (tool: string) => tool.replace(/(?<=[a-z])(?=[A-Z])/g, '-').toLowerCase()
const ref = (tool: string) => ({ plugin: ownerOf(tool), key: 'output-shape', id: tool })

/** Called by the mod named after the tool (see `ownerOf`). */
export function publishToolOutput($: ModApi, tool: string, shape: ToolOutputShape): void {
  $.state.set(ref(tool), shape)
}

export function toolOutputShape($: ModApi, tool: string): ToolOutputShape | undefined {
  const value = $.state.get(ref(tool)).value as Partial<ToolOutputShape> | undefined
  return typeof value?.parse === 'function' && typeof value.text === 'function' ? value as ToolOutputShape : undefined
}
