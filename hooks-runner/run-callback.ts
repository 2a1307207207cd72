import type { CallbackHandler } from './config-schema.js'
import { describeCause } from './errors.js'
import { failedRaw, type RawResult } from './raw-result.js'
import { timedCall } from './timed-call.js'

/**
 * Calls an in-process callback hook. Its answer is read as a command's JSON stdout on exit 0, so
 * every event gives it the meaning it gives settings hooks; `{async: true}` (the work goes on
 * elsewhere) and no answer are an empty output. A throw or a timeout is the hook's error, which
 * fails closed under `onError: "deny"`.
 */
export async function runCallback(h: CallbackHandler, ctx: { input: Record<string, unknown>; timeoutMs: number; signal?: AbortSignal }): Promise<RawResult> {
  const toolUseId = typeof ctx.input.tool_use_id === 'string' ? ctx.input.tool_use_id : undefined
  const r = await timedCall(ctx, (signal) => h.callback(ctx.input, toolUseId, { signal }))
  if (r.kind === 'aborted') return r.result
  if (r.kind === 'threw') return failedRaw('failed', `the callback threw: ${describeCause(r.err)}`, 'HOOKS_ERR_EXIT', r.durationMs)
  const { value: answer, durationMs } = r
  if (answer !== undefined && answer !== null && (typeof answer !== 'object' || Array.isArray(answer))) {
    return failedRaw('failed', `the callback answered ${Array.isArray(answer) ? 'an array' : typeof answer}, not a hook output object`, 'HOOKS_ERR_EXIT', durationMs)
  }
  const output = answer && (answer as { async?: unknown }).async === true ? {} : answer ?? {}
  return { status: 'done', exitCode: 0, stdout: JSON.stringify(output), stderr: '', durationMs }
}
