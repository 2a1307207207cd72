import { envInteger } from '../../core/env.js'

/**
 * How long a streamed response may send nothing before it is given up on. A stalled connection
 * otherwise waits for the request timeout (10 minutes). Long enough for a slow first token
 * after a large prompt; the API sends `ping` events while it thinks, and those count.
 */
export const DEFAULT_STREAM_IDLE_TIMEOUT_MS = 90_000

/**
 * The idle timeout: the option, then MODLOOP_STREAM_IDLE_TIMEOUT_MS (or CLAUDE_CODE_…), then
 * Claude Code's CLAUDE_STREAM_IDLE_TIMEOUT_MS, then 90 s. 0 turns the watch off.
 */
export function streamIdleTimeoutMs(option: number | undefined, env: Readonly<Record<string, string | undefined>>): number {
  if (option !== undefined) return option
  const claude = Number(env.CLAUDE_STREAM_IDLE_TIMEOUT_MS)
  return envInteger(env, 'STREAM_IDLE_TIMEOUT_MS', Number.isInteger(claude) && claude >= 0 ? claude : DEFAULT_STREAM_IDLE_TIMEOUT_MS)
}

/** Thrown by an attempt whose stream went quiet for the idle timeout. */
export class StreamIdle extends Error {
  constructor(readonly idleMs: number, readonly received: boolean) {
    const time = idleMs < 1000 ? `${idleMs} ms` : idleMs % 1000 === 0 ? `${idleMs / 1000} s` : `${(idleMs / 1000).toFixed(1)} s`
    super(`stream idle timeout: no event from the API for ${time} (${received ? 'partial response received' : 'no event received'}; MODLOOP_STREAM_IDLE_TIMEOUT_MS sets the limit)`)
    this.name = 'StreamIdle'
  }
}

/**
 * Watches one streamed response for silence. `signal` (handed to the request) aborts once the
 * clock has run `ms` without an event; it also follows the caller's signal. The clock runs only
 * while the adapter waits on the network (`waiting`), not while the caller holds an event it
 * was handed (`holding`), so a slow consumer is never taken for a silent server.
 */
export class IdleWatch {
  readonly signal: AbortSignal
  private readonly controller = new AbortController()
  // One timer for the whole response, pushed back at each wait: a cleared timer and a new one for
  // every event cost each event a timer list made and dropped.
  private timer: NodeJS.Timeout | undefined
  private held = true
  private idle = false
  private readonly follow: () => void

  constructor(private readonly ms: number, private readonly outer?: AbortSignal) {
    this.signal = this.controller.signal
    // Aborted, the response is over: its clock goes too (a caller that abandoned the stream never disposes it).
    this.follow = () => {
      this.controller.abort(outer?.reason)
      clearTimeout(this.timer)
      this.timer = undefined
    }
    if (outer?.aborted) this.follow()
    else outer?.addEventListener('abort', this.follow, { once: true })
  }

  /** True once the timeout fired: whatever the request threw then is the silence. */
  get fired(): boolean {
    return this.idle
  }

  waiting(): void {
    this.held = false
    if (this.ms <= 0 || this.signal.aborted) return
    if (this.timer) this.timer.refresh()
    else this.timer = setTimeout(() => this.expire(), this.ms)
  }

  holding(): void {
    this.held = true
  }

  dispose(): void {
    clearTimeout(this.timer)
    this.timer = undefined
    this.outer?.removeEventListener('abort', this.follow)
  }

  // A timer that runs out while the caller holds an event counts for nothing: the next wait starts it over.
  private expire(): void {
    if (this.held || this.timer === undefined) return
    this.idle = true
    this.controller.abort(new Error('stream idle timeout'))
  }
}
