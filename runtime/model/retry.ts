import { setTimeout as delay } from 'node:timers/promises'
import { isTransient, ModelApiError, type StreamOptions } from '../../core/model/types.js'
import { envSetting } from '../../core/env.js'

export const DEFAULT_MAX_RETRIES = 10
export const MAX_RETRIES_CAP = 15
export const DEFAULT_RETRY_BASE_MS = 500
/** A server asking for a longer pause than this is not waited on longer. */
export const RETRY_AFTER_CAP_MS = 30_000
const BACKOFF_CAP_MS = 32_000
/** Overloaded answers in a row after which a waiting fallback model takes over. */
export const OVERLOADS_BEFORE_FALLBACK = 3

export interface RetryPolicy {
  maxRetries: number
  baseMs: number
}

export interface RetryOptions {
  maxRetries?: number
  retryBaseMs?: number
}

/**
 * The retry budget: explicit options, then the MAX_RETRIES and RETRY_BASE_MS settings of the
 * environment (`envSetting`), then the defaults. Retries cap at 15.
 */
export function retryPolicy(options: RetryOptions = {}, env: NodeJS.ProcessEnv = process.env): RetryPolicy {
  const maxRetries = options.maxRetries ?? envNumber(envSetting(env, 'MAX_RETRIES')) ?? DEFAULT_MAX_RETRIES
  const baseMs = options.retryBaseMs ?? envNumber(envSetting(env, 'RETRY_BASE_MS')) ?? DEFAULT_RETRY_BASE_MS
  return {
    maxRetries: Math.min(MAX_RETRIES_CAP, Math.max(0, Math.floor(maxRetries))),
    baseMs: Math.max(0, baseMs),
  }
}

/** Exponential backoff with up to 25% jitter, unless the server said how long to wait. */
export function backoffMs(attempt: number, baseMs: number, retryAfterMs?: number | null): number {
  if (retryAfterMs != null && retryAfterMs >= 0) return Math.min(retryAfterMs, RETRY_AFTER_CAP_MS)
  const exp = Math.min(baseMs * 2 ** (attempt - 1), BACKOFF_CAP_MS)
  return Math.round(exp + exp * 0.25 * Math.random())
}

/** A failed attempt as the retry loop sees it. */
export interface Failure {
  error: ModelApiError
  /** Overrides `error.retryable`, e.g. when the server says `x-should-retry: false`. */
  retryable?: boolean
  retryAfterMs?: number | null
}

/**
 * Streams one request, re-issuing it on a retryable failure until an event that `settles` the
 * attempt is out (by default the first event). Past that a failure is final: a retry would
 * replay what the caller has acted on. Before it, the caller sees the new attempt start over
 * (for a Messages stream, with its own message_start). `toFailure` turns whatever an attempt
 * threw into a ModelApiError; `midStream` says whether that attempt had yielded.
 */
export async function* streamWithRetries<T>(
  attempt: () => AsyncIterable<T>,
  toFailure: (err: unknown, midStream: boolean) => Failure,
  policy: RetryPolicy,
  options: StreamOptions = {},
  settles: (event: T) => boolean = () => true,
): AsyncGenerator<T, void, undefined> {
  const { signal, onRetry, fallbackWaiting } = options
  let overloads = 0
  for (let retry = 0; ; retry++) {
    if (signal?.aborted) throw abortedError()
    let yielded = false
    let settled = false
    try {
      for await (const event of attempt()) {
        yielded = true
        settled ||= settles(event)
        yield event
      }
      return
    } catch (err) {
      if (signal?.aborted) throw abortedError()
      const failure = toFailure(err, yielded)
      const retryable = !settled && (failure.retryable ?? isTransient(failure.error.type))
      overloads = failure.error.type === 'overloaded' ? overloads + 1 : 0
      const handOver = fallbackWaiting === true && (failure.error.type === 'server_error' || overloads >= OVERLOADS_BEFORE_FALLBACK)
      if (!retryable || retry >= policy.maxRetries || handOver) throw finalError(failure.error, retry, retryable)
      const delayMs = backoffMs(retry + 1, policy.baseMs, failure.retryAfterMs)
      const { type, status, message } = failure.error
      onRetry?.({ attempt: retry + 1, maxRetries: policy.maxRetries, delayMs, status, error: type, message })
      await sleep(delayMs, signal)
    }
  }
}

/**
 * A Messages stream is settled once a content block completed: spec §3.7 retries a stream cut
 * before that, and keeps the completed blocks of one cut after it.
 */
export const blockCompleted = (event: { type: string }): boolean => event.type === 'content_block_stop'

/** Waits, turning an abort into ModelApiError('aborted'). */
export async function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  try {
    await delay(ms, undefined, { signal })
  } catch (err) {
    if (signal?.aborted) throw abortedError()
    throw err
  }
}

export function abortedError(): ModelApiError {
  return new ModelApiError('aborted', 'the model request was aborted')
}

// Says how many retries were spent, so a report shows the budget ran out rather than a blip.
function finalError(error: ModelApiError, retries: number, retryable: boolean): ModelApiError {
  if (retries === 0 || !retryable) return error
  return new ModelApiError(error.type, `${error.message} (gave up after ${retries} retries)`, error.status, error.midStream)
}

function envNumber(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined
  const n = Number(value)
  return Number.isFinite(n) ? n : undefined
}
