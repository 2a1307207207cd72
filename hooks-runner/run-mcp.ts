import type { McpToolHandler } from './config-schema.js'
import { describeCause } from './errors.js'
import { failedRaw, type RawResult } from './raw-result.js'
import { timedCall } from './timed-call.js'

export interface McpHookRequest {
  server: string
  tool: string
  /** The handler's `input` with `${path}` in string values taken from the hook input. */
  input: Record<string, unknown>
  signal: AbortSignal
  timeoutMs: number
}

/** The host's MCP client: call a tool on a connected server and return its text content. */
export type McpHook = (request: McpHookRequest) => Promise<{ text: string; isError?: boolean }>

function lookup(input: unknown, path: string): unknown {
  let v: unknown = input
  for (const key of path.split('.')) v = typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[key] : undefined
  return v
}

/** `"${tool_input.file_path}"` → the value at that path of the hook input, in every string of `input`. */
export function substituteInput(value: unknown, hookInput: Record<string, unknown>): unknown {
  if (typeof value === 'string') {
    const whole = /^\$\{([A-Za-z0-9_.]+)\}$/.exec(value)
    if (whole) return lookup(hookInput, whole[1]!) ?? ''
    return value.replace(/\$\{([A-Za-z0-9_.]+)\}/g, (_, p: string) => {
      const v = lookup(hookInput, p)
      return v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v)
    })
  }
  if (Array.isArray(value)) return value.map((v) => substituteInput(v, hookInput))
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substituteInput(v, hookInput)]))
  }
  return value
}

/** Calls the tool; its text is read like command stdout, `isError` or a failed call is a non-blocking error (§3.10). */
export async function runMcp(h: McpToolHandler, mcp: McpHook, ctx: { input: Record<string, unknown>; timeoutMs: number; signal?: AbortSignal }): Promise<RawResult> {
  const input = substituteInput(h.input ?? {}, ctx.input) as Record<string, unknown>
  const r = await timedCall(ctx, (signal) => mcp({ server: h.server, tool: h.tool, input, signal, timeoutMs: ctx.timeoutMs }))
  if (r.kind === 'aborted') return r.result
  if (r.kind === 'threw') return failedRaw('failed', `the tool call failed: ${describeCause(r.err)}`, 'HOOKS_ERR_MCP', r.durationMs)
  const { value: result, durationMs } = r
  if (result.isError) return { ...failedRaw('failed', `the tool reported an error: ${result.text.slice(0, 200)}`, 'HOOKS_ERR_MCP', durationMs), stdout: result.text }
  return { status: 'done', exitCode: 0, stdout: result.text, stderr: '', durationMs }
}
