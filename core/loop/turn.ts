import type { ContentBlockParam, MessageParam } from '@anthropic-ai/sdk/resources/messages'
import type { CommandRunResult, PromptOrigin, PromptSubmitResult } from '../events/types.js'
import { describeError, ModloopError } from '../errors.js'
import { uuid, type SDKMessage, type SDKResultMessage } from './messages.js'
import { TurnEnd } from './turn-end.js'
import type { Session } from './session.js'
import { expandCommand } from './command.js'
import { attachMentions } from './mentions.js'
import { attach } from './attach.js'
import { replayDeferred } from './defer.js'
import { flushWhile } from './compact.js'
import { enterPrompt } from './prompt-message.js'
import { joinHistory, recordUnshown } from './unshown.js'
import { localCommandRecord } from './command-header.js'
import { TurnRun } from './round.js'
import { attachmentKinds } from './attachment-kinds.js'

export interface TurnInput {
  text: string
  origin: PromptOrigin
  /** Extra content for the user message (images, documents) from streaming input. */
  content?: ContentBlockParam[]
  /** The uuid the caller gave its user message (streaming input); one is made when absent. */
  uuid?: string
  /** The message's content as the caller sent it: what a replay echoes, without the context the turn added. */
  sent?: MessageParam['content']
  /** Fewer model requests than the session's maxTurns: what a budget shared with earlier turns left. */
  maxTurns?: number
  /** A subagent's first message: what agent.spawn's handlers added beside its prompt. */
  context?: readonly string[]
  /** A mod's $.prompt.submit, settled as the turn starts (see TurnStarted). */
  started?: TurnStarted
  /** A mod's $.command.run, settled with the command's answer once it ran. */
  ran?: CommandRan
  /** Delivered as written (`verbatimPrompts`, `client_composed`): no slash command, no `@path` mentions. */
  verbatim?: boolean
}

/**
 * Settles a mod's `$.prompt.submit` (spec mods §4): with prompt.submit's answer once the turn
 * started, a `{ drop }` or a local command's run included; rejected when it ended before that.
 */
export interface TurnStarted {
  resolve(r: PromptSubmitResult): void
  reject(err: Error): void
}

/** Settles a mod's `$.command.run` (spec mods §4) with command.run's answer; rejected when its turn ended before the command ran. */
export interface CommandRan {
  resolve(r: CommandRunResult): void
  reject(err: Error): void
}

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
  if (input.maxTurns !== undefined) end.maxTurns = input.maxTurns
  if (input.origin.kind === 'task-notification') end.origin = { kind: 'task-notification', task_id: input.origin.taskId }
  try {
    if (session.agent) {
      // A subagent's run: its prompt was settled by agent.spawn; no prompt.submit, init or turn.start.
      const prompt: ContentBlockParam[] = [{ type: 'text', text: input.text }]
      prompt.push(...(await attach(session, 'prompt_context', input.context ?? [], { kind: 'plugin', event: 'agent.spawn' })))
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
      // A `!` command's output is not a prompt: Claude Code runs no UserPromptSubmit for it.
      const submitted = input.origin.kind === 'bash' ? { text: '' } : await bus.emit('prompt.submit', { text: input.text, ...(input.content?.length ? attached(input.content) : {}), origin: input.origin, wait: false }, (e) => ({ text: e.text, context: e.context }))
      if ('drop' in submitted) {
        input.started?.resolve(submitted)
        return yield* end.finish({ subtype: 'success', terminal: 'hook_stopped', text: submitted.drop, isError: submitted.isError !== false })
      }
      session.userTurns++
      // Every turn that runs opens its stream with init, a local command's (/cost, /compact) too; a
      // command that compacts shows its status while it runs and its boundary before its result.
      // The init is the session as the turn starts: a /model switch shows in the next turn's, as in Claude Code.
      const init = await session.root.initMessage?.()
      // What the command posts (a status) is flushed after the init: the outbox as it stands before it runs.
      const mark = session.root.outbox.length
      // A verbatim prompt is no command, even one that starts with `/`: its text goes to the model as written.
      const command = input.verbatim ? Promise.resolve(undefined) : expandCommand(session, submitted.text, input.origin, input.ran)
      const expansion = yield* flushWhile(session, command, init && (() => init), mark)
      if (expansion?.kind === 'output') {
        input.started?.resolve(submitted)
        if (!expansion.unrecorded) await joinHistory(session, localCommandRecord(expansion.command, expansion.args, expansion.text))
        return yield* end.finish({ subtype: 'success', terminal: 'completed', text: expansion.text, isError: false, localCommand: expansion.command, ...(expansion.unrecorded ? { unrecorded: true } : {}) })
      }
      if (expansion?.kind === 'deny') return yield* end.finish({ subtype: 'success', terminal: 'completed', text: expansion.text, isError: expansion.isError })
      const text = expansion?.text ?? submitted.text
      // The API refuses an empty text block: a prompt of images alone (streaming input) has none.
      const content: ContentBlockParam[] = [...(text.trim() !== '' ? [{ type: 'text' as const, text }] : []), ...(expansion?.images ?? []), ...(input.content ?? [])]
      content.push(...(await attach(session, 'prompt_context', [...(submitted.context ?? []), ...(expansion?.context ?? [])], { kind: 'plugin', event: 'prompt.submit' })))
      // A task's report is the runtime's words, and a mod's prompt its own: an `@path` in either is not a
      // person asking for that file. A command a mod ran expands as typed (spec mods §4 $.prompt.submit).
      if (!input.verbatim && input.origin.kind !== 'task-notification' && (input.origin.kind !== 'plugin' || expansion)) {
        const mentioned = await attachMentions(session, text)
        content.push(...(await attach(session, 'file', mentioned.context, { kind: 'plugin', event: 'prompt.mention' })), ...mentioned.images)
      }
      // A call held back by a deferral runs first; resuming it may come with no prompt at all.
      const replayed = session.deferred !== undefined
      if (replayed) {
        const ended = yield* replayDeferred(session, abort.signal, end)
        if (ended) return yield* end.finish(ended)
      }
      if (!replayed || text.trim() !== '' || input.content?.length) {
        end.userMessageUuid = input.uuid ?? uuid()
        yield* enterPrompt(session, content, end.userMessageUuid, input.sent, expansion?.header)
      }
      await bus.emit('turn.start', { text, turnId })
      input.started?.resolve(submitted)
    } catch (err) {
      input.started?.reject(new ModloopError('MODLOOP_ERR_NOT_RUN', `$.prompt.submit: the prompt's turn failed before it started: ${describeError(err)}`, { cause: err }))
      input.ran?.reject(new ModloopError('MODLOOP_ERR_NOT_RUN', `$.command.run: ${input.text} did not run: its turn failed: ${describeError(err)}`, { cause: err }))
      return yield* end.finish({ subtype: 'error_during_execution', terminal: 'turn_setup_failed', text: `turn setup failed: ${describeError(err)}`, isError: true })
    }
    return yield* loop(session, turnId, abort.signal, end)
  } finally {
    // A no-op once the turn started: this is a prompt that never got that far (the session's setup
    // failed, the prompt was empty or its command refused, the caller stopped reading), whose
    // $.prompt.submit must not hang.
    input.started?.reject(new ModloopError('MODLOOP_ERR_NOT_RUN', '$.prompt.submit: the prompt\'s turn ended before it started'))
    // Also a no-op once the command ran; else a prompt.submit handler dropped it or rewrote it into no command.
    input.ran?.reject(new ModloopError('MODLOOP_ERR_NOT_RUN', `$.command.run: ${input.text} did not run: its turn ended before the command ran`))
    outer?.removeEventListener('abort', onOuterAbort)
    session.turnAbort = undefined
    session.turnId = undefined
  }
}

function attached(content: readonly ContentBlockParam[]): { attachments?: ReturnType<typeof attachmentKinds> } {
  const kinds = attachmentKinds(content)
  return kinds.length > 0 ? { attachments: kinds } : {}
}

/** The rounds of the turn, until one of them ends it: exactly one result, however it ends. */
async function* loop(session: Session, turnId: string, signal: AbortSignal, end: TurnEnd): AsyncGenerator<SDKMessage, SDKResultMessage, undefined> {
  const { maxTurns } = end
  // --max-turns 0 allows no request at all.
  if (maxTurns !== undefined && maxTurns <= 0) {
    return yield* end.finish({ subtype: 'error_max_turns', terminal: 'max_turns', isError: true, errors: [`Reached maximum number of turns (${maxTurns})`] })
  }
  const run = new TurnRun(session, turnId, signal, end)
  for (let index = 0; ; index++) {
    const r = yield* run.round(index)
    if (r !== 'continue') return yield* end.finish(r)
  }
}
