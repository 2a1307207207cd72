import { failedRaw, type RawResult } from './raw-result.js'
import { formatSeconds } from './run-command.js'

export type Timed<T> =
  | { kind: 'value'; value: T; durationMs: number }
  | { kind: 'threw'; err: unknown; durationMs: number }
  /** Timed out or cancelled: the result to report, as a command hook's would read. */
  | { kind: 'aborted'; result: RawResult }

/**
 * Runs an in-process hook (a callback, an MCP tool call) under the hook's timeout and the run's
 * signal: `work` gets a signal that fires on either, and the race ends at once even if `work`
 * ignores it.
 */
export async function timedCall<T>(ctx: { timeoutMs: number; signal?: AbortSignal }, work: (signal: AbortSignal) => Promise<T> | T): Promise<Timed<T>> {
  const started = performance.now()
  const timeout = new AbortController()
  const timer = setTimeout(() => timeout.abort(), ctx.timeoutMs)
  const signal = ctx.signal ? AbortSignal.any([ctx.signal, timeout.signal]) : timeout.signal
  const aborted = new Promise<typeof ABORTED>((resolve) => signal.addEventListener('abort', () => resolve(ABORTED), { once: true }))
  try {
    const value = await Promise.race([Promise.resolve().then(() => work(signal)), aborted])
    const durationMs = performance.now() - started
    if (value !== ABORTED) return { kind: 'value', value: value as T, durationMs }
    return {
      kind: 'aborted',
      result: timeout.signal.aborted
        ? failedRaw('timeout', `timed out after ${formatSeconds(ctx.timeoutMs)}`, 'HOOKS_ERR_TIMEOUT', durationMs)
        : failedRaw('cancelled', 'Hook cancelled', 'HOOKS_ERR_CANCELLED', durationMs),
    }
  } catch (err) {
    return { kind: 'threw', err, durationMs: performance.now() - started }
  } finally {
    clearTimeout(timer)
  }
}

const ABORTED = Symbol('aborted')
