import type { ContentBlock, ContentBlockParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages'
import type { PromptOrigin } from '../events/types.js'
import { describeError } from '../errors.js'
import { maxOutputTokens } from '../model/pricing.js'
import type { ModelApiError } from '../model/types.js'
import { concurrencyCap, ToolExecutor } from '../tools/executor.js'
import { INTERRUPTED, type CallEnv, type CallOutcome } from '../tools/pipeline.js'
import { addUsage, uuid, type SDKMessage, type SDKResultMessage } from './messages.js'
import { composeSystemPrompt } from './prompt.js'
import { endingOf, initMessage, TurnEnd } from './turn-end.js'
import type { Session } from './session.js'
import { runStep } from './step.js'
import { expandCommand } from './command.js'
import { attachMentions } from './mentions.js'
import { attach } from './attach.js'
import { StopGate } from './stop.js'
import { deferralOf, endDeferred, replayDeferred } from './defer.js'
import { compactAfterTooLong, compactIfDue, flushWhile, isPromptTooLong } from './compact.js'
import { endBatch } from './batch.js'
import { noteResponse } from './compact-meter.js'
import { enterPrompt } from './prompt-message.js'
import { deliverSwitchContext, fallBack } from './model-switch.js'
import { recordUnshown } from './unshown.js'
import { progressPoster } from './tool-progress.js'

export interface TurnInput {
  text: string
  origin: PromptOrigin
  /** Extra content for the user message (images, documents) from streaming input. */
  content?: ContentBlockParam[]
  /** The uuid the caller gave its user message (streaming input); one is made when absent. */
  uuid?: string
}

const MAX_TOKENS_RECOVERIES = 3
const CUT_STREAM_RECOVERIES = 3
const NUDGE_MAX_TOKENS = 'Your response was cut off by the output token limit. Continue exactly where you stopped: no apology, no recap.'
const NUDGE_THINKING = 'You finished thinking without answering. Give your answer now.'
const NUDGE_MALFORMED = 'Your last tool call could not be read (its input was not valid JSON). Call the tool again with valid JSON input.'

/**
 * One user turn (spec loop-and-sdk §3.1): the prompt enters, then model requests and tool batches
 * alternate until the model answers without tools or a limit or failure ends the turn. Exactly
 * one result closes it, and no tool_use is ever left without its tool_result in the history.
 */
export async function* runTurn(session: Session, input: TurnInput): AsyncGenerator<SDKMessage, SDKResultMessage, undefined> {
  const { bus } = session.host
  const turnId = uuid()
  const abort = new AbortController()
  const outer = session.options.abortController?.signal
  const onOuterAbort = () => abort.abort(outer?.reason)
  if (outer?.aborted) abort.abort(outer.reason)
  outer?.addEventListener('abort', onOuterAbort, { once: true })
  session.turnAbort = abort
  session.turnId = turnId
  const end = new TurnEnd(session, turnId)
  try {
    if (session.agent) {
      // A subagent's run: its prompt was settled by agent.spawn; no prompt.submit, init or turn.start.
      const prompt: ContentBlockParam[] = [{ type: 'text', text: input.text }]
      session.messages.push({ role: 'user', content: prompt })
      await recordUnshown(session, prompt, false)
      return yield* loop(session, turnId, abort.signal, end)
    }
    if (session.root.setupError) {
      return yield* end.finish({ subtype: 'error_during_execution', terminal: 'turn_setup_failed', isError: true, text: `turn setup failed: ${session.root.setupError.message}` })
    }
    if (input.text.trim() === '' && !input.content?.length && !session.deferred) {
      return yield* end.finish({ subtype: 'success', terminal: 'completed', isError: true, text: 'Nothing to run: the prompt is empty and no deferred tool call is waiting.' })
    }
    try {
      const submitted = await bus.emit('prompt.submit', { text: input.text, origin: input.origin, wait: false }, (e) => ({ text: e.text, context: e.context }))
      if ('drop' in submitted) return yield* end.finish({ subtype: 'success', terminal: 'hook_stopped', text: submitted.drop, isError: true })
      session.userTurns++
      // Every turn that runs opens its stream with init, a local command's (/cost, /compact) too; a
      // command that compacts shows its status while it runs and its boundary before its result.
      const expansion = yield* flushWhile(session, expandCommand(session, submitted.text, input.origin), () => initMessage(session))
      if (expansion?.kind === 'output') return yield* end.finish({ subtype: 'success', terminal: 'completed', text: expansion.text, isError: false })
      if (expansion?.kind === 'deny') return yield* end.finish({ subtype: 'success', terminal: 'completed', text: expansion.text, isError: true })
      const text = expansion?.text ?? submitted.text
      const content: ContentBlockParam[] = [{ type: 'text', text }, ...(input.content ?? [])]
      content.push(...(await attach(session, 'prompt_context', submitted.context ?? [], { kind: 'plugin', event: 'prompt.submit' })))
      content.push(...(await attach(session, 'file', await attachMentions(session, text), { kind: 'plugin', event: 'prompt.mention' })))
      // A call held back by a deferral runs first; resuming it may come with no prompt at all.
      const replayed = session.deferred !== undefined
      if (replayed) {
        const ended = yield* replayDeferred(session, abort.signal, end)
        if (ended) return ended
      }
      if (!replayed || text.trim() !== '' || input.content?.length) {
        end.userMessageUuid = input.uuid ?? uuid()
        yield* enterPrompt(session, content, end.userMessageUuid)
      }
      await bus.emit('turn.start', { text, turnId })
    } catch (err) {
      return yield* end.finish({ subtype: 'error_during_execution', terminal: 'turn_setup_failed', text: `turn setup failed: ${describeError(err)}`, isError: true })
    }
    return yield* loop(session, turnId, abort.signal, end)
  } finally {
    outer?.removeEventListener('abort', onOuterAbort)
    session.turnAbort = undefined
    session.turnId = undefined
  }
}

async function* loop(session: Session, turnId: string, signal: AbortSignal, end: TurnEnd): AsyncGenerator<SDKMessage, SDKResultMessage, undefined> {
  const { options } = session
  let model = session.model
  // A switch (setModel, /model) during the turn takes over from the next request, fallback or not.
  let chosen = model
  let maxTokensLeft = MAX_TOKENS_RECOVERIES
  let cutLeft = CUT_STREAM_RECOVERIES
  let malformedLeft = 1
  let thinkingLeft = 1
  let supersedes: string[] | undefined
  const stopGate = new StopGate(session, turnId)
  const env: CallEnv = {
    bus: session.host.bus, tools: session.tools, cwd: session.cwd, sessionId: session.id, signal,
    agentId: session.agent?.agentId,
    canUseTool: options.canUseTool,
    onDenied: (d) => session.root.denials.push(d),
    onProgress: progressPoster(session),
  }
  const cap = concurrencyCap(options.env)
  for (let index = 0; ; index++) {
    if (signal.aborted) return yield* end.finish({ subtype: 'error_during_execution', terminal: 'aborted_streaming', isError: true })
    // --max-turns 0 allows no request at all.
    if (options.maxTurns !== undefined && options.maxTurns <= 0) {
      return yield* end.finish({ subtype: 'error_max_turns', terminal: 'max_turns', isError: true, errors: [`Reached maximum number of turns (${options.maxTurns})`] })
    }
    const due = yield* compactIfDue(session)
    if (due) return yield* end.finish(due)
    if (session.model !== chosen) model = chosen = session.model
    await deliverSwitchContext(session)
    const tools = await session.toolDefinitions()
    const request = {
      model,
      max_tokens: options.maxTokens ?? maxOutputTokens(model),
      system: await composeSystemPrompt(session, model, tools.map((t) => t.name)),
      messages: [...session.messages],
      tools,
    }
    const executor = new ToolExecutor(env, cap)
    const gen = runStep(session, { turnId, index, request, signal, executor, agentId: session.agent?.agentId, parentToolUseId: session.agent?.parentToolUseId })
    let next = await gen.next()
    while (!next.done) {
      const m = next.value
      if (supersedes && m.type === 'assistant') {
        yield { ...m, supersedes }
        supersedes = undefined
      } else yield m
      next = await gen.next()
    }
    const step = next.value
    end.apiMs += step.apiMs
    session.account(step.model, step.usage)
    if (!session.agent) session.lastUsage = step.usage
    if (!step.error) noteResponse(session, request.messages, step.usage)
    addUsage(end.usage, step.usage)
    end.stopReason = step.stopReason

    if (step.malformed && step.stopReason !== 'max_tokens' && !signal.aborted) {
      await executor.finish()
      if (malformedLeft-- > 0) {
        supersedes = step.assistantUuids
        continue
      }
      end.num++
      return yield* end.finish({ subtype: 'error_during_execution', terminal: 'malformed_tool_use_exhausted', text: `the model sent a tool call that could not be read twice: ${step.malformed}`, isError: true })
    }
    const blocks: ContentBlock[] = step.completed.filter((c) => !c.malformed).map((c) => c.block)
    const toolUses = blocks.filter((b): b is Extract<ContentBlock, { type: 'tool_use' }> => b.type === 'tool_use')
    const refusedTo = step.stopReason === 'refusal' && !signal.aborted ? await fallBack(session, model) : undefined
    if (refusedTo) {
      // The refused response is retracted: it never enters the history the retry sends.
      await executor.finish()
      supersedes = step.assistantUuids
      yield session.stamp({ type: 'system', subtype: 'informational', level: 'warning', content: `${model} refused; retrying on ${refusedTo} for this turn` })
      model = refusedTo
      continue
    }
    if (blocks.length > 0) {
      session.messages.push({ role: 'assistant', content: blocks })
      end.num++
      end.lastText = blocks.filter((b) => b.type === 'text').map((b) => (b as { text: string }).text).join('')
    }

    if (step.error && !signal.aborted && (!step.error.midStream || blocks.length === 0)) {
      if (isPromptTooLong(step.error)) {
        await executor.finish()
        const after = yield* compactAfterTooLong(session)
        if (after === 'retry') continue
        return yield* end.finish(after)
      }
      const fallback = step.error.type === 'overloaded' || step.error.type === 'server_error' ? await fallBack(session, model) : undefined
      if (fallback) {
        yield session.stamp({ type: 'system', subtype: 'informational', level: 'warning', content: `${model} is unavailable (${step.error.message}); falling back to ${fallback} for this turn` })
        model = fallback
        continue
      }
      await executor.finish()
      return yield* end.finish(apiFailure(step.error))
    }

    const over = options.maxBudgetUsd !== undefined && session.root.totalCostUsd - session.root.costBeforeQuery >= options.maxBudgetUsd
    if (signal.aborted || over) {
      const outcomes = await executor.finish()
      yield* answer(session, toolUses, outcomes, over ? 'Not run: the budget for this session is used up.' : INTERRUPTED)
      if (over) return yield* end.finish({ subtype: 'error_max_budget_usd', terminal: 'budget_exhausted', isError: true, errors: [`Reached the maximum budget ($${options.maxBudgetUsd})`] })
      return yield* end.finish({ subtype: 'error_during_execution', terminal: toolUses.length > 0 && step.error === undefined ? 'aborted_tools' : 'aborted_streaming', isError: true })
    }

    if (toolUses.length === 0) {
      const nudge = recoveryNudge(step, blocks, { maxTokensLeft, cutLeft, thinkingLeft })
      if (nudge === 'max_tokens') maxTokensLeft--
      if (nudge === 'cut') cutLeft--
      if (nudge === 'thinking') thinkingLeft--
      if (nudge) {
        const text = nudge === 'thinking' ? NUDGE_THINKING : nudge === 'cut' ? `The response stream was cut off (${step.error?.message}). Continue where you stopped.` : NUDGE_MAX_TOKENS
        const content = await nudgeContent(session, nudge, text)
        session.messages.push({ role: 'user', content })
        await recordUnshown(session, content, true)
        continue
      }
      if (step.stopReason === 'max_tokens') {
        yield session.stamp({ type: 'system', subtype: 'informational', level: 'warning', content: `The response exceeded the ${request.max_tokens} output token maximum ${MAX_TOKENS_RECOVERIES} times in a row.` })
        return yield* end.finish({ subtype: 'error_during_execution', terminal: 'model_error', isError: true, errors: ['max_output_tokens'] })
      }
      if (step.error) return yield* end.finish(apiFailure(step.error))
      if (step.stopReason === 'refusal') return yield* end.finish({ subtype: 'success', terminal: 'model_error', isError: true })
      const stop = yield* stopGate.check(end.lastText)
      if (stop.kind === 'halt') return yield* end.finish(stop.ending ? endingOf(stop.ending) : { subtype: 'success', terminal: 'hook_stopped', text: stop.reason, isError: false })
      if (stop.kind === 'again') {
        session.messages.push({ role: 'user', content: stop.content })
        await recordUnshown(session, stop.content, true)
        continue
      }
      return yield* end.finish({ subtype: 'success', terminal: 'completed', isError: false })
    }

    // Subagents' messages reach the root stream while its tools run; a subagent just waits on its own.
    const outcomes = session.agent ? await executor.finish() : yield* session.drainWhile(executor.finish())
    const deferred = deferralOf(session, toolUses, outcomes)
    if (deferred) return yield* endDeferred(session, end, deferred)
    const batch = await endBatch(session, turnId, outcomes)
    const context = await attach(session, 'tool_context', outcomes.flatMap((o) => o.context ?? []), { kind: 'plugin', event: 'tool.call' })
    // canUseTool's deny with `interrupt` ends the turn as an interrupt does, once the batch is answered.
    const interrupted = signal.aborted || outcomes.some((o) => o.interruptTurn)
    // A tool.call handler (a PreToolUse/PostToolUse `continue: false`) ends the turn once the batch is answered.
    const halt = outcomes.find((o) => o.halt !== undefined)?.halt ?? batch.halt
    // A tool that ends the turn (StructuredOutput) does so on its answered result.
    const ending = outcomes.find((o) => o.endTurn !== undefined)?.endTurn
    const outOfTurns = options.maxTurns !== undefined && end.num >= options.maxTurns
    yield* answer(session, toolUses, outcomes, INTERRUPTED, [...context, ...batch.context], !interrupted && halt === undefined && !ending && !outOfTurns)
    if (step.malformed) {
      const last = session.messages.at(-1)!
      const nudge = await attach(session, 'malformed_tool_use', [NUDGE_MALFORMED], { kind: 'engine' })
      last.content = [...(last.content as ContentBlockParam[]), ...nudge]
      await recordUnshown(session, nudge, true)
    }
    if (interrupted) return yield* end.finish({ subtype: 'error_during_execution', terminal: 'aborted_tools', isError: true })
    if (halt !== undefined) return yield* end.finish({ subtype: 'success', terminal: 'hook_stopped', text: halt, isError: false })
    if (ending) return yield* end.finish(endingOf(ending))
    if (outOfTurns) {
      return yield* end.finish({ subtype: 'error_max_turns', terminal: 'max_turns', isError: true, errors: [`Reached maximum number of turns (${options.maxTurns})`] })
    }
  }
}

function recoveryNudge(
  step: { stopReason: string | null; error?: ModelApiError },
  blocks: ContentBlock[],
  left: { maxTokensLeft: number; cutLeft: number; thinkingLeft: number },
): 'max_tokens' | 'cut' | 'thinking' | undefined {
  if (step.stopReason === 'max_tokens') return left.maxTokensLeft > 0 ? 'max_tokens' : undefined
  if (step.error?.midStream) return left.cutLeft > 0 ? 'cut' : undefined
  const thinkingOnly = blocks.length > 0 && blocks.every((b) => b.type === 'thinking' || b.type === 'redacted_thinking')
  return thinkingOnly && left.thinkingLeft > 0 ? 'thinking' : undefined
}

function apiFailure(error: ModelApiError) {
  return { subtype: 'success' as const, terminal: 'api_error' as const, text: `API Error${error.status ? ` ${error.status}` : ''}: ${error.message}`, isError: true }
}

/**
 * Answers every tool_use of the last response, in order: one user message per result, one history
 * entry for all. With `join`, messages sent with priority `next` join them; a round that ends the
 * turn (an interrupt, a halt, the last allowed turn) leaves them waiting to start a turn of their own.
 */
async function* answer(session: Session, toolUses: Extract<ContentBlock, { type: 'tool_use' }>[], outcomes: CallOutcome[], missing = INTERRUPTED, context: ContentBlockParam[] = [], join = false): AsyncGenerator<SDKMessage> {
  if (toolUses.length === 0) return
  const byId = new Map(outcomes.map((o) => [o.toolUseId, o]))
  const results: ToolResultBlockParam[] = []
  for (const use of toolUses) {
    const o = byId.get(use.id)
    const block: ToolResultBlockParam = { type: 'tool_result', tool_use_id: use.id, content: o?.content ?? o?.text ?? missing, ...(o?.isError ?? true ? { is_error: true } : {}) }
    results.push(block)
    yield session.stamp({ type: 'user' as const, message: { role: 'user' as const, content: [block] }, parent_tool_use_id: session.agent?.parentToolUseId ?? null, tool_use_result: o ? o.result ?? o.text : missing })
  }
  const extra: ContentBlockParam[] = [...context]
  // Messages sent with priority `next` while this turn ran join it here, beside the tool results.
  for (const joining of session.agent || !join ? [] : session.root.input?.takeJoining() ?? []) {
    const c = joining.message.content
    extra.push(...(typeof c === 'string' ? [{ type: 'text' as const, text: c }] : c))
  }
  session.messages.push({ role: 'user', content: [...results, ...extra] })
  if (extra.length > 0) await recordUnshown(session, extra, true)
}

/** A recovery nudge, through prompt.attachment; if a mod drops it, a bare continuation stands in so the request stays valid. */
async function nudgeContent(session: Session, type: string, text: string): Promise<ContentBlockParam[]> {
  const blocks = await attach(session, type, [text], { kind: 'engine' })
  return blocks.length > 0 ? blocks : [{ type: 'text', text: 'Continue.' }]
}
