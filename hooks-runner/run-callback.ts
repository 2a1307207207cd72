import type { CallbackHandler } from './config-schema.js'
import { describeCause } from './errors.js'
import { failedRaw, type RawResult } from './raw-result.js'
import { formatSeconds } from './run-command.js'

/**
 * Calls an in-process callback hook. Its answer is read as a command's JSON stdout on exit 0, so
 * every event gives it the meaning it gives settings hooks; `{async: true}` (the work goes on
 * elsewhere) and no answer are an empty output. A throw or a timeout is the hook's error, which
 * fails closed under `onError: "deny"`.
 */
export async function runCallback(h: CallbackHandler, ctx: { input: Record<string, unknown>; timeoutMs: number; signal?: AbortSignal }): Promise<RawResult> {
  const started = performance.now()
  const timeout = new AbortController()
  const timer = setTimeout(() => timeout.abort(), ctx.timeoutMs)
  const signal = ctx.signal ? AbortSignal.any([ctx.signal, timeout.signal]) : timeout.signal
  const aborted = new Promise<'aborted'>((resolve) => signal.addEventListener('abort', () => resolve('aborted'), { once: true }))
  try {
    const toolUseId = typeof ctx.input.tool_use_id === 'string' ? ctx.input.tool_use_id : undefined
    const answer = await Promise.race([Promise.resolve(h.callback(ctx.input, toolUseId, { signal })), aborted])
    const durationMs = performance.now() - started
    if (answer === 'aborted') {
      return timeout.signal.aborted
        ? failedRaw('timeout', `timed out after ${formatSeconds(ctx.timeoutMs)}`, 'HOOKS_ERR_TIMEOUT', durationMs)
        : failedRaw('cancelled', 'Hook cancelled', 'HOOKS_ERR_CANCELLED', durationMs)
    }
    if (answer !== undefined && answer !== null && (typeof answer !== 'object' || Array.isArray(answer))) {
      return failedRaw('failed', `the callback answered ${Array.isArray(answer) ? 'an array' : typeof answer}, not a hook output object`, 'HOOKS_ERR_EXIT', durationMs)
    }
    const output = answer && (answer as { async?: unknown }).async === true ? {} : answer ?? {}
    return { status: 'done', exitCode: 0, stdout: JSON.stringify(output), stderr: '', durationMs }
  } catch (err) {
    return failedRaw('failed', `the callback threw: ${describeCause(err)}`, 'HOOKS_ERR_EXIT', performance.now() - started)
  } finally {
    clearTimeout(timer)
  }
}
