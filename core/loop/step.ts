import type { TurnStepInput, Usage } from '../events/types.js'
import { ModelApiError, type ModelRequest, type RetryInfo } from '../model/types.js'
import { assistantError } from '../model/api-errors.js'
import { reasoningParams, requestedDisplay, requestedThinking, thinkingDisabledByEnv } from '../model/capabilities.js'
import type { ToolExecutor } from '../tools/executor.js'
import { Accumulator, type Completed } from './accumulate.js'
import { chunksFrom, eventOf } from './chunks.js'
import { uuid, zeroUsage, type SDKAssistantMessage, type SDKMessage } from './messages.js'
import type { Session } from './session.js'
import { fallbackFor } from './model-switch.js'
import { sessionEffort } from './session-effort.js'
import { describeError } from '../errors.js'
import { envTrue } from '../env.js'

export interface StepOutcome {
  completed: Completed[]
  assistantUuids: string[]
  stopReason: string | null
  usage: Usage
  model: string
  /** Why a tool_use block could not be read, if one could not. */
  malformed?: string
  error?: ModelApiError
  /** Blocks the stream was cut in the middle of. */
  lostBlocks: number
  apiMs: number
}

export interface StepRequest {
  turnId: string
  index: number
  request: ModelRequest
  signal: AbortSignal
  executor: ToolExecutor
  agentId?: string
  parentToolUseId?: string | null
}

/**
 * One model request inside a turn, raised as `turn.step`: the model's stream passes through every
 * handler, and what leaves the outermost one is shown and recorded. Each completed block is
 * yielded as an assistant message; a complete tool_use block goes to the executor at once.
 */
const RETRIED = Symbol('retried')

export async function* runStep(session: Session, step: StepRequest): AsyncGenerator<SDKMessage, StepOutcome, undefined> {
  const { request, signal } = step
  const retries: SDKMessage[] = []
  // A retry is shown as its wait begins, not when the next attempt answers (a wait can last minutes).
  let retried: (() => void) | undefined
  const onRetry = (info: RetryInfo) => {
    queueMicrotask(() => retried?.())
    // `message` would read as the API message a consumer looks for on every line: the text is `error_message`.
    retries.push(session.stamp({
      type: 'system', subtype: 'api_retry', attempt: info.attempt, max_retries: info.maxRetries,
      retry_delay_ms: info.delayMs, error_status: info.status, error: assistantError(info.error), error_message: info.message,
      ...(info.error === 'connection' && info.status === null ? { no_response: true } : {}),
    }))
  }
  const asked = askedReasoning(session, request.model)
  const reasoning = reasoningParams(request.model, asked, request.max_tokens)
  const e: TurnStepInput = {
    turnId: step.turnId, index: step.index, model: request.model, ...(reasoning.effort ? { effort: reasoning.effort } : {}),
    messageCount: request.messages.length, ...(step.agentId ? { agentId: step.agentId } : {}),
  }
  // A handler that changed the model or the effort gets them clamped again for the model sent.
  const reasoned = (e2: TurnStepInput) => (e2.model === e.model && e2.effort === e.effort ? reasoning : reasoningParams(e2.model, { ...asked, effort: e2.effort }, request.max_tokens))
  let requestId: string | undefined
  const onResponse = (info: { requestId?: string }) => { requestId = info.requestId }
  const core = (e2: TurnStepInput) => {
    const options = { signal, onRetry, onResponse, fallbackWaiting: fallbackFor(session, e2.model) !== undefined }
    return chunksFrom(session.llm.stream(withReasoning({ ...request, model: e2.model }, reasoned(e2), session.env), options), { turnId: e2.turnId, index: e2.index })
  }
  const started = performance.now()
  const acc = new Accumulator()
  const assistantUuids: string[] = []
  const outcome = (error?: ModelApiError): StepOutcome => ({
    completed: acc.completed,
    assistantUuids,
    stopReason: acc.stopReason,
    usage: acc.usage ?? zeroUsage(),
    model: acc.model ?? request.model,
    malformed: acc.completed.find((c) => c.malformed)?.malformed,
    error,
    lostBlocks: error ? acc.discardOpen() : 0,
    apiMs: performance.now() - started,
  })
  const assistant = (done: Completed): SDKAssistantMessage => {
    const m = session.stamp({
      type: 'assistant' as const,
      message: {
        id: acc.messageId ?? `msg_${uuid()}`, type: 'message' as const, role: 'assistant' as const, model: acc.model ?? request.model,
        content: [done.block], stop_reason: null, stop_sequence: null, usage: acc.usage ?? zeroUsage(),
      },
      parent_tool_use_id: step.parentToolUseId ?? null,
      ...(requestId ? { request_id: requestId } : {}),
    })
    assistantUuids.push(m.uuid)
    return m
  }
  const stream = session.host.bus.stream('turn.step', e, core, { signal })
  try {
    for (;;) {
      const pending = stream.next()
      let s: Awaited<typeof pending> | typeof RETRIED
      do {
        // One promise a chunk that the chunk or a retry settles (a race of two cost each chunk three).
        s = await new Promise<Awaited<typeof pending> | typeof RETRIED>((resolve, reject) => {
          retried = () => resolve(RETRIED)
          pending.then(resolve, reject)
        })
        retried = undefined
        while (retries.length) yield retries.shift()!
      } while (s === RETRIED)
      if (s.done) break
      if (session.options.includePartialMessages) {
        const ev = eventOf(s.value)
        if (ev) yield session.stamp({ type: 'stream_event' as const, event: ev, parent_tool_use_id: step.parentToolUseId ?? null })
      }
      const done = acc.push(s.value)
      if (done) yield* finish(done)
    }
  } catch (err) {
    while (retries.length) yield retries.shift()!
    if (signal.aborted) for (const done of acc.closeText()) yield* finish(done)
    return outcome(asModelError(err, signal))
  }
  for (const done of acc.closeAll()) yield* finish(done)
  return outcome()

  function* finish(done: Completed): Generator<SDKMessage> {
    if (done.malformed) return
    yield assistant(done)
    if (done.block.type === 'tool_use') step.executor.add({ id: done.block.id, name: done.block.name, input: done.block.input })
  }
}

/** `request` with the reasoning the session asks for, clamped to the request's model, as a round sends it. */
export function withSessionReasoning(session: Session, request: ModelRequest): ModelRequest {
  return withReasoning(request, reasoningParams(request.model, askedReasoning(session, request.model), request.max_tokens), session.env)
}

function askedReasoning(session: Session, model: string) {
  const o = session.options
  return {
    effort: sessionEffort(session, model), thinking: requestedThinking(o, session.env), display: requestedDisplay(o),
    noThinking: thinkingDisabledByEnv(session.env),
  }
}

/**
 * A fixed thinking budget is the Claude 4 models' thinking: without this beta they think only
 * before their first tool call of a turn, never between the results and the next call (adaptive
 * thinking interleaves by itself). Claude Code sends it on every request, unless
 * DISABLE_INTERLEAVED_THINKING is on (for a gateway that refuses the beta).
 */
const INTERLEAVED_THINKING = 'interleaved-thinking-2025-05-14'

function withReasoning(request: ModelRequest, r: ReturnType<typeof reasoningParams>, env: Record<string, string | undefined>): ModelRequest {
  if (!r.thinking && !r.effort) return request
  const interleaved = r.thinking?.type === 'enabled' && !request.betas?.includes(INTERLEAVED_THINKING) && !envTrue(env.DISABLE_INTERLEAVED_THINKING)
  return {
    ...request,
    ...(r.thinking ? { thinking: r.thinking } : {}),
    ...(r.effort ? { output_config: { ...request.output_config, effort: r.effort } } : {}),
    ...(interleaved ? { betas: [...(request.betas ?? []), INTERLEAVED_THINKING] } : {}),
  }
}

function asModelError(err: unknown, signal: AbortSignal): ModelApiError {
  if (signal.aborted) return new ModelApiError('aborted', 'the request was aborted', null, true)
  if (err instanceof ModelApiError) return err
  return new ModelApiError('unknown', describeError(err), null, true)
}
