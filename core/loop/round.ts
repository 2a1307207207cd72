import type { ContentBlock, ContentBlockParam } from '@anthropic-ai/sdk/resources/messages'
import { outputLimit } from './output-limit.js'
import { concurrencyCap, ToolExecutor } from '../tools/executor.js'
import { INTERRUPTED, INTERRUPTED_ANSWER, type CallEnv } from '../tools/pipeline.js'
import { attach } from './attach.js'
import { endBatch } from './batch.js'
import { afterTooLong, beforeRequest, isPromptTooLong } from './before-request.js'
import { deferralOf, deferredEnding } from './defer.js'
import { afterBatch, apiFailure, endingOf, stoppedEnding, turnLimit, unrecoveredEnding, type Ending } from './ending.js'
import { addUsage, type SDKMessage, historyBlocks, withoutTrailingThinking } from './messages.js'
import { fallBack } from './model-switch.js'
import { deliverHeld } from './held.js'
import { loopRequest } from './request.js'
import { cutShort, NUDGE_MALFORMED, nudgeText, Recovery } from './recovery.js'
import type { Session } from './session.js'
import { runStep, type StepOutcome } from './step.js'
import { noteWriter } from './signed-by.js'
import { StopGate } from './stop.js'
import { progressPoster } from './tool-progress.js'
import type { TurnEnd } from './turn-end.js'
import { recordUnshown } from './unshown.js'
import { answer, resultsAsSettled } from './answer.js'
import { followUps } from './follow-up.js'

type ToolUse = Extract<ContentBlock, { type: 'tool_use' }>

/** What a round ends in: another request, the turn's ending, or the turn ending on a deferred call. */
export type RoundEnd = 'continue' | Ending

/**
 * The rounds of one turn: each sends one request and deals with its response — recovering,
 * answering its tool calls, or letting the turn end. `round()` is the whole of it, top to bottom;
 * what ends the turn is decided in ending.ts from what the round saw.
 */
export class TurnRun {
  private model: string
  /** The model last chosen for the session: a switch (setModel, /model) takes over from the next request. */
  private chosen: string
  private supersedes: string[] | undefined
  private readonly recovery = new Recovery()
  private readonly stopGate: StopGate
  private readonly env: CallEnv
  private readonly cap: number

  constructor(private readonly session: Session, private readonly turnId: string, private readonly signal: AbortSignal, private readonly end: TurnEnd) {
    this.model = this.chosen = session.model
    this.stopGate = new StopGate(session, turnId)
    this.env = {
      bus: session.host.bus, tools: session.tools, cwd: session.cwd, sessionId: session.id, signal,
      agentId: session.agent?.agentId,
      canUseTool: session.options.canUseTool,
      onDenied: (d) => session.root.denials.push(d),
      onLinesChanged: (lines) => session.countLines(lines),
      onProgress: progressPoster(session),
    }
    this.cap = concurrencyCap(session.options.env)
  }

  async *round(index: number): AsyncGenerator<SDKMessage, RoundEnd, undefined> {
    const { session, signal, end } = this
    if (signal.aborted) return { subtype: 'error_during_execution', terminal: 'aborted_streaming', isError: true }
    if (session.model !== this.chosen) this.model = this.chosen = session.model
    const due = yield* beforeRequest(session, { turnId: this.turnId, index, model: this.model })
    if (due) return due
    await deliverHeld(session)

    // Where the session works now: a tool of the last request may have moved it.
    const executor = new ToolExecutor({ ...this.env, cwd: session.cwd, model: this.model }, this.cap)
    const step = yield* this.request(index, executor)
    const blocks: ContentBlock[] = step.completed.filter((c) => !c.malformed).map((c) => c.block)
    const toolUses = blocks.filter((b): b is ToolUse => b.type === 'tool_use')

    // Responses that are retracted or retried never enter the history.
    const retried = yield* this.retry(step, executor)
    if (retried) return retried
    if (blocks.length > 0) {
      const kept = withoutTrailingThinking(historyBlocks(blocks))
      if (kept.length > 0) {
        const message = { role: 'assistant' as const, content: kept }
        noteWriter(message, step.model)
        session.messages.push(message)
      }
      end.num++
      end.lastText = blocks.filter((b) => b.type === 'text').map((b) => (b as { text: string }).text).join('')
    }
    const failed = yield* this.failure(step, blocks, executor, index)
    if (failed) return failed

    const over = session.options.maxBudgetUsd !== undefined && session.root.totalCostUsd - session.root.costBeforeQuery >= session.options.maxBudgetUsd
    if (signal.aborted || over) {
      // Calls that started while the response streamed finish; the rest never start and are answered as not run.
      yield* answer(session, toolUses, await executor.settle(), over ? 'Not run: the budget for this session is used up.' : INTERRUPTED)
      // An answer cut off while it streamed: the next request says so after what it had said, as Claude Code's does.
      if (signal.aborted && toolUses.length === 0 && step.error) yield* shownUserMessage(session, [{ type: 'text', text: INTERRUPTED_ANSWER }])
      return stoppedEnding({ over, maxBudgetUsd: session.options.maxBudgetUsd, toolUses: toolUses.length, errored: step.error !== undefined })
    }
    if (toolUses.length === 0) return yield* this.answered(step, blocks)
    return yield* this.tools(step, toolUses, executor)
  }

  /** Sends the request through `turn.step`, passing its messages on; the response is accounted as it ends. */
  private async *request(index: number, executor: ToolExecutor): AsyncGenerator<SDKMessage, StepOutcome, undefined> {
    const { session, end, model } = this
    // The history as the session holds it: a handler that marks the request copies what it marks.
    const messages = [...session.messages]
    const request = await loopRequest(session, model, messages, this.turnId)
    const gen = runStep(session, { turnId: this.turnId, index, request, signal: this.signal, executor, agentId: session.agent?.agentId, parentToolUseId: session.agent?.parentToolUseId })
    let next = await gen.next()
    while (!next.done) {
      const m = next.value
      if (this.supersedes && m.type === 'assistant') {
        yield { ...m, supersedes: this.supersedes }
        this.supersedes = undefined
      } else yield m
      next = await gen.next()
    }
    const step = next.value
    end.apiMs += step.apiMs
    session.account(step.model, step.usage)
    // A failed request sent nothing the window holds: the last answered one still says how full it is.
    if (!session.agent && !step.error) session.lastUsage = step.usage
    if (!step.error) session.meter.noteResponse(messages, step.usage)
    addUsage(end.usage, step.usage)
    end.stopReason = step.stopReason
    return step
  }

  /**
   * A response retried before it counts: an unreadable tool call (once), or a refusal the fallback
   * model takes over. Its calls that started while it streamed finish; the others never run.
   */
  private async *retry(step: StepOutcome, executor: ToolExecutor): AsyncGenerator<SDKMessage, RoundEnd | undefined, undefined> {
    const { session, signal } = this
    if (step.malformed && !cutShort(step.stopReason) && !signal.aborted) {
      await executor.settle()
      if (this.recovery.retryMalformed()) {
        this.supersedes = step.assistantUuids
        return 'continue'
      }
      this.end.num++
      return { subtype: 'error_during_execution', terminal: 'malformed_tool_use_exhausted', text: `the model sent a tool call that could not be read twice: ${step.malformed}`, isError: true }
    }
    const refusedTo = step.stopReason === 'refusal' && !signal.aborted ? await fallBack(session, this.model) : undefined
    if (!refusedTo) return undefined
    await executor.settle()
    this.supersedes = step.assistantUuids
    yield session.stamp({ type: 'system', subtype: 'informational', level: 'warning', content: `${this.model} refused; retrying on ${refusedTo} for this turn` })
    this.model = refusedTo
    return 'continue'
  }

  /** An API error that left nothing to answer: compaction after "prompt too long", the fallback model, or the turn ends. */
  private async *failure(step: StepOutcome, blocks: ContentBlock[], executor: ToolExecutor, index: number): AsyncGenerator<SDKMessage, RoundEnd | undefined, undefined> {
    const { session, signal } = this
    if (!step.error || signal.aborted || (step.error.midStream && blocks.length > 0)) return undefined
    if (isPromptTooLong(step.error)) {
      await executor.settle()
      const after = yield* afterTooLong(session, { turnId: this.turnId, index, model: this.model }, step.error)
      return after === 'retry' ? 'continue' : after
    }
    const fallback = step.error.type === 'overloaded' || step.error.type === 'server_error' ? await fallBack(session, this.model) : undefined
    if (fallback) {
      yield session.stamp({ type: 'system', subtype: 'informational', level: 'warning', content: `${this.model} is unavailable (${step.error.message}); falling back to ${fallback} for this turn` })
      this.model = fallback
      return 'continue'
    }
    await executor.settle()
    // The failed request counts as a turn, as in Claude Code (one that streamed blocks already counted).
    if (blocks.length === 0) this.end.num++
    return apiFailure(step.error)
  }

  /** A response without tool calls: a recovery nudge, a stop check that may continue the turn, or its end. */
  private async *answered(step: StepOutcome, blocks: ContentBlock[]): AsyncGenerator<SDKMessage, RoundEnd, undefined> {
    const { session, end } = this
    const nudge = this.recovery.nudgeFor(step, blocks)
    if (nudge) {
      await this.addUserMessage(await nudgeContent(session, nudge, nudgeText(nudge, step.error)))
      return 'continue'
    }
    const unrecovered = unrecoveredEnding(step, outputLimit(session, this.model))
    if (unrecovered) return unrecovered
    const stop = yield* this.stopGate.check(end.lastText)
    if (stop.kind === 'halt') {
      if (stop.ending) return endingOf(stop.ending)
      // The answer is complete: it stays the result, as in Claude Code, and the reason is shown beside it.
      yield session.stamp({ type: 'system', subtype: 'informational', level: 'warning', content: stop.reason })
      return { subtype: 'success', terminal: 'stop_hook_prevented', isError: false }
    }
    if (stop.kind === 'again') {
      // The request a continuation asks for counts toward maxTurns, as in Claude Code: a Stop hook or
      // a StructuredOutput nudge that keeps the turn going cannot take it past --max-turns.
      const limit = turnLimit(end.num, end.maxTurns)
      if (limit) return limit
      // On the stream as Claude Code puts it there (a synthetic user message), so a caller sees why
      // the turn goes on; the stream's record of it is the transcript's.
      yield* shownUserMessage(session, stop.content, true)
      return 'continue'
    }
    return { subtype: 'success', terminal: 'completed', isError: false }
  }

  /** Runs the response's tool calls, answers every one, and lets the turn go on unless the batch ends it. */
  private async *tools(step: StepOutcome, toolUses: ToolUse[], executor: ToolExecutor): AsyncGenerator<SDKMessage, RoundEnd, undefined> {
    const { session, end, signal } = this
    const { outcomes, shown } = yield* resultsAsSettled(session, toolUses, executor)
    const deferred = deferralOf(session, toolUses, outcomes)
    if (deferred) return deferredEnding(session, end, deferred)
    const batch = await endBatch(session, this.turnId, outcomes)
    const context = await attach(session, 'tool_context', outcomes.flatMap((o) => o.context ?? []), { kind: 'plugin', event: 'tool.call' })
    const ending = afterBatch({ outcomes, batchHalt: batch.halt, aborted: signal.aborted, num: end.num, maxTurns: end.maxTurns })
    yield* answer(session, toolUses, outcomes, INTERRUPTED, [...context, ...batch.context], ending === undefined, shown)
    yield* followUps(session, outcomes)
    if (step.malformed) {
      const last = session.messages.at(-1)!
      const nudge = await attach(session, 'malformed_tool_use', [NUDGE_MALFORMED], { kind: 'engine' })
      last.content = [...(last.content as ContentBlockParam[]), ...nudge]
      await recordUnshown(session, nudge, true)
    }
    return ending ?? 'continue'
  }

  private async addUserMessage(content: ContentBlockParam[]): Promise<void> {
    this.session.messages.push({ role: 'user', content })
    await recordUnshown(this.session, content, true)
  }
}

/** A recovery nudge, through prompt.attachment; if a mod drops it, a bare continuation stands in so the request stays valid. */
async function nudgeContent(session: Session, type: string, text: string): Promise<ContentBlockParam[]> {
  const blocks = await attach(session, type, [text], { kind: 'engine' })
  return blocks.length > 0 ? blocks : [{ type: 'text', text: 'Continue.' }]
}

/**
 * A user message the runtime adds to the history and shows on the stream (`[Request interrupted by
 * user]`, a Stop hook's feedback): the stream's record of it is the transcript's.
 */
function* shownUserMessage(session: Session, content: ContentBlockParam[], synthetic = false): Generator<SDKMessage> {
  session.messages.push({ role: 'user', content })
  yield session.stamp({
    type: 'user' as const, message: { role: 'user' as const, content }, parent_tool_use_id: session.agent?.parentToolUseId ?? null,
    ...(synthetic ? { isSynthetic: true } : {}),
  })
}
