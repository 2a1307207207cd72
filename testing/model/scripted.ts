import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages'
import { modelErrorType } from '../../core/model/api-errors.js'
import { abortedError, blockCompleted, retryPolicy, sleep, streamWithRetries, type Failure, type RetryOptions } from '../../runtime/model/retry.js'
import { StreamIdle, streamIdleTimeoutMs } from '../../runtime/model/stream-idle.js'
import { createScriptCursor, parseScript, type Script } from './script.js'
import { ModelApiError, type Model, type ModelRequest, type StreamOptions } from '../../core/model/types.js'

export interface ScriptedModelOptions extends RetryOptions {
  name?: string
  /** As the Anthropic adapter's: how long a stalled step (`stallAfter`) is waited on. */
  streamIdleTimeoutMs?: number
}

/** A model that answers from a script in-process, remembering what it was asked. */
export interface ScriptedModel extends Model {
  /** Every request received, retries included, as it was at the time of the call. */
  readonly requests: ModelRequest[]
}

/**
 * The scripted model streams the same events the fake Messages API server sends for the same
 * script, and fails and retries the way the Anthropic adapter does, so the loop and mod tests
 * run offline against realistic behaviour. `script` is a parsed Script or a raw script value.
 */
export function createScriptedModel(script: Script | unknown, options: ScriptedModelOptions = {}): ScriptedModel {
  const cursor = createScriptCursor(parseScript(script))
  const policy = retryPolicy(options)
  const idleMs = streamIdleTimeoutMs(options.streamIdleTimeoutMs, process.env)
  const requests: ModelRequest[] = []

  async function* attempt(request: ModelRequest, signal?: AbortSignal): AsyncGenerator<RawMessageStreamEvent> {
    requests.push(structuredClone(request))
    const answer = cursor.next(request)
    if (answer.kind === 'error') {
      // Like the fake server: the script's retry-after (429/529 ask for an immediate retry), an exhausted script for none.
      const seconds = answer.retryAfter === undefined ? NaN : Number(answer.retryAfter)
      throw new ScriptedFailure({
        error: new ModelApiError(modelErrorType(answer.status, answer.type), answer.message, answer.status),
        retryAfterMs: Number.isFinite(seconds) ? seconds * 1000 : null,
        retryable: answer.exhausted ? false : undefined,
      })
    }
    const { step, events } = answer
    if (step.delayMs) await sleep(step.delayMs, signal)
    const cut = Math.min(events.length, step.truncateAfter ?? Infinity, step.stallAfter ?? Infinity, step.malformedAfter ?? Infinity)
    for (let i = 0; i < cut; i++) {
      if (i > 0 && step.chunkDelayMs) await sleep(step.chunkDelayMs, signal)
      if (signal?.aborted) throw abortedError()
      const event = events[i]!
      // The SDK throws an `error` event (an overload mid-stream) as the API error it carries.
      if ((event.type as string) === 'error') throw errorEvent(event as unknown as { error?: { type?: string; message?: string } })
      yield event
    }
    if (step.stallAfter === cut) {
      // As the adapter's idle watch would: wait the idle time (or for the abort), then give up.
      await sleep(idleMs > 0 ? idleMs : 2 ** 31 - 1, signal)
      const idle = new StreamIdle(idleMs, cut > 0)
      throw new ModelApiError(cut > 0 ? 'stream' : 'connection', idle.message, null, cut > 0)
    }
    if (step.malformedAfter === cut) {
      const message = `the response stream held a frame that is not JSON, after ${cut} events (step ${answer.stepIndex})`
      throw cut === 0 ? new ModelApiError('connection', message) : new ModelApiError('stream', message, null, true)
    }
    if (cut < events.length) {
      const message = `the response stream was cut off before message_stop, after ${cut} events (step ${answer.stepIndex})`
      throw cut === 0 ? new ModelApiError('connection', message) : new ModelApiError('stream', message, null, true)
    }
  }

  return {
    name: options.name ?? 'scripted',
    requests,
    stream(request: ModelRequest, streamOptions: StreamOptions = {}) {
      return streamWithRetries(() => attempt(request, streamOptions.signal), toFailure, policy, streamOptions, blockCompleted)
    },
  }
}

function errorEvent(event: { error?: { type?: string; message?: string } }): ModelApiError {
  const type = event.error?.type ?? 'api_error'
  return new ModelApiError(modelErrorType(null, type), event.error?.message ?? type, null)
}

/** A scripted error answer, carrying the retry hints an HTTP response would put in headers. */
class ScriptedFailure extends Error {
  constructor(readonly failure: Failure) {
    super(failure.error.message)
  }
}

function toFailure(err: unknown, midStream: boolean): Failure {
  if (err instanceof ScriptedFailure) return err.failure
  // Anything else is a bug in the caller or here, not a model failure: let it through as is.
  if (!(err instanceof ModelApiError)) throw err
  return { error: midStream && !err.midStream ? new ModelApiError(err.type, err.message, err.status, true) : err }
}
