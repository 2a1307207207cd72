import type { ContentBlockParam } from '@anthropic-ai/sdk/resources/messages'
import type { SDKMessage, SDKResultMessage, SDKUserMessage } from '../core/loop/messages.js'
import { openSession } from './open.js'
import { closeSession } from './close.js'
import type { PromptInput, QueryOptions } from './options.js'
import type { Session } from '../core/loop/session.js'
import { InputQueue, pump, QUEUED } from '../core/loop/input-queue.js'
import { runTurn, type TurnInput } from '../core/loop/turn.js'
import { UNRECORDED } from '../core/loop/turn-end.js'
import { promptBlocks } from '../core/loop/prompt-message.js'
import type { ProvenanceRecord } from '../core/trace/record.js'
import { modelControls, type ModelControls } from './model-controls.js'
import { Display } from './display.js'
import { ModloopError } from '../core/errors.js'
import type { PermissionMode } from '../core/permission-modes.js'
import { getContextUsage, type ContextUsage } from './context-usage.js'
import { interruptTurn, type InterruptReceipt } from './interrupt.js'
import { setPermissionMode } from './permission-mode.js'
import { rewindFiles } from './rewind-files.js'
import type { RewindFilesResult, McpServerStatus } from '../core/mod/session-capabilities.js'
import { mcpServerStatus } from './server-status.js'
import { supportedCommands, type SlashCommand } from './supported-commands.js'
import { endStalled, STALLED, unlessStalled } from './stall.js'
import { sdkControls, type SdkControls } from './sdk-controls.js'
import { nextPrompt, stopTasks } from './task-wait.js'
import type { LiveTaskInfo } from '../core/mod/contracts.js'
import type { PromptOrigin } from '../core/events/types.js'
import { AbortError } from './abort-error.js'

/** The object `query()` returns: the message stream, plus controls. */
export interface Query extends AsyncGenerator<SDKMessage, void, undefined>, ModelControls, SdkControls {
  /**
   * Interrupts the running turn (it ends aborted_streaming or aborted_tools) and answers with the
   * uuids of the user messages still waiting; with `cancel_queued` they are dropped instead.
   * Undefined before the session opened.
   */
  interrupt(options?: { cancel_queued?: boolean }): Promise<InterruptReceipt | undefined>
  /** What mods changed or decided about a tool call (by tool_use_id) or, with `'prompt'`, the prompt; in order. */
  why(subject: string): ProvenanceRecord[]
  /** Ends the session at once: the running turn is aborted and input still waiting is dropped. */
  close(): Promise<void>
  /** Switches the permission mode for the calls that follow; resolves with the mode in effect (`{ mode }`, the Agent SDK's answer). */
  setPermissionMode(mode: string): Promise<{ mode: PermissionMode }>
  /** The slash commands mods registered. */
  supportedCommands(): Promise<SlashCommand[]>
  /** Each MCP server's status, as the mcp mod reports it. */
  mcpServerStatus(): Promise<McpServerStatus[]>
  /** How full the context window is. */
  getContextUsage(): Promise<ContextUsage>
  /** Restores the files edited since that user message (needs enableFileCheckpointing). */
  rewindFiles(userMessageId: string, options?: { dryRun?: boolean }): Promise<RewindFilesResult>
  /** Stops a running task (a subagent, a background shell): it ends `stopped`, with its task_notification. */
  stopTask(taskId: string): Promise<void>
  /**
   * Moves the foreground task a tool call waits on (that tool_use id's, or every one) to the
   * background: the call returns at once and the task's report comes back as a turn of its own.
   * False only when a given id matched no foreground task.
   */
  backgroundTasks(toolUseId?: string): Promise<boolean>
  /** The running tasks (a modloop addition; the stream's background_tasks_changed carries the background ones). */
  runningTasks(): LiveTaskInfo[]
  /** Whether nothing is left to run: no prompt waits and no background task holds the stream (a modloop addition). */
  isIdle(): boolean
}

/**
 * Runs the agent. A string prompt is one turn with exactly one result; an async iterable of user
 * messages is a session with one result per message. A single-shot turn that ends in an error
 * subtype yields its result and then throws, as the Agent SDK does; once `abortController` is
 * aborted the stream ends by throwing an `AbortError`, in either mode. Either way the stream goes on
 * while background tasks run: each one's report is a turn of its own, with its own result.
 */
export function query(params: { prompt: PromptInput; options?: QueryOptions }): Query {
  assertPrompt(params.prompt)
  const options = params.options ?? {}
  let session: Session | undefined
  const closed = { value: false }
  // The session opens when the stream is first asked for a message, or earlier when a control
  // needs it (the Agent SDK answers setModel or mcpServerStatus before any message is read).
  let opening: Promise<Session> | undefined
  const open = (): Promise<Session> => (opening ??= openSession(options, typeof params.prompt !== 'string').then((s) => (session = s)))
  let markRunning!: (s: Session) => void
  let failedToRun!: (err: unknown) => void
  const running = new Promise<Session>((resolve, reject) => { markRunning = resolve; failedToRun = reject })
  // Only the controls that wait for the session read it; a session that never opens is the stream's error.
  running.catch(() => undefined)
  const started = { value: false }
  const gen = run(params.prompt, options, { open, running: markRunning, failed: failedToRun, started }, closed) as Query
  gen.why = (subject) => session?.provenance?.why(subject) ?? []
  gen.interrupt = async (o) => (session ? interruptTurn(session, o) : undefined)
  Object.assign(gen, modelControls(open), sdkControls(open, running))
  gen.close = async () => {
    closed.value = true
    session?.turnAbort?.abort(new Error('closed'))
    session?.input?.end()
    await gen.return(undefined)
    // Opened by a control, never iterated: the loop that closes it never ran.
    if (!started.value && opening) await closeSession(await opening, 'other', !options.host).catch(() => undefined)
  }
  gen.setPermissionMode = async (mode) => ({ mode: await setPermissionMode(await open(), mode) })
  gen.supportedCommands = async () => supportedCommands(await open())
  gen.mcpServerStatus = async () => mcpServerStatus(await open())
  gen.getContextUsage = async () => getContextUsage(await open())
  gen.rewindFiles = async (userMessageId, o) => rewindFiles(await open(), userMessageId, o)
  gen.stopTask = async (taskId) => (await open()).tasks.stop(taskId)
  gen.backgroundTasks = async (toolUseId) => (await open()).tasks.background(toolUseId)
  gen.runningTasks = () => session?.tasks.list() ?? []
  gen.isIdle = () => !session || ((session.input?.waiting().length ?? 0) === 0 && session.queued.length === 0 && !session.tasks.holding())
  return gen
}

interface Opening {
  open(): Promise<Session>
  running(s: Session): void
  failed(err: unknown): void
  started: { value: boolean }
}

async function* run(prompt: PromptInput, options: QueryOptions, opening: Opening, closed: { value: boolean }): AsyncGenerator<SDKMessage, void, undefined> {
  opening.started.value = true
  const session = await opening.open().catch((err: unknown) => {
    opening.failed(err)
    throw err
  })
  let failed: SDKResultMessage | undefined
  // Prompts wait here, a single one too: a background task's report joins them (priority later) as a turn of its own.
  const queue = new InputQueue(() => session.turnAbort?.abort(new Error('interrupted by a message sent with priority "now"')))
  session.input = queue
  opening.running(session)
  queue.holdWhile(() => !closed.value && session.tasks.holding())
  // A prompt a mod submits while the session waits for input (a scheduled job firing) runs at once.
  queue.serveQueued(() => !closed.value && session.queued.length > 0)
  session.tasks.deliver = (message) => queue.push(message)
  session.tasks.onChange = () => queue.poke()
  const single = typeof prompt === 'string'
  // A single prompt's turn and the turns of its tasks' reports share its maxTurns (`-p --max-turns`).
  const budget = single ? options.maxTurns : undefined
  let used = 0
  let inputError: unknown
  try {
    // Prompts mods submitted as the session started (a SessionStart hook's initialUserMessage) come first.
    yield* drainQueued(session)
    if (single) {
      queue.push({ type: 'user', message: { role: 'user', content: prompt }, parent_tool_use_id: null })
      queue.end()
    } else pump(prompt, queue, (err) => { inputError = err })
    for (let first = true; ; first = false) {
      const message = yield* nextPrompt(session, queue, options.maxWaitTasksMs)
      if (!message || closed.value) break
      if (message === QUEUED) {
        yield* drainQueued(session)
        continue
      }
      const input = turnInput(withWaitingReports(message, queue), options.verbatimPrompts === true)
      if (budget !== undefined && input.origin.kind === 'task-notification') input.maxTurns = budget - used
      const result = yield* recorded(session, runTurn(session, input))
      used += result.num_turns
      yield* drainQueued(session)
      // A single prompt that failed ends the run: its tasks are not waited for.
      if (single && first && result.subtype !== 'success') failed = result
      const spent = budget !== undefined && used >= budget
      if (failed || spent) {
        if (spent && !failed && session.tasks.list().length > 0) session.options.log?.(`maxTurns (${budget}) is spent: the running tasks are stopped and their reports not run`)
        yield* stopTasks(session, queue)
        break
      }
    }
    // Tasks still running (shells do not hold the session) end with it: how they ended is shown.
    if (session.tasks.list().length > 0 && !closed.value) yield* stopTasks(session, queue)
    if (inputError) throw inputError
  } finally {
    // A turn still set here was left mid-way (the caller stopped iterating): its generators are
    // never resumed, so its request and tool calls are aborted or they would hold the process.
    session.turnAbort?.abort(new Error('the query was ended while its turn ran'))
    session.tasks.deliver = undefined
    await session.tasks.stopAll()
    await closeSession(session, 'other', !options.host)
  }
  // An abort the caller asked for ends the stream as the Agent SDK's does (the aborted turn's result came first); close() is not one.
  if (options.abortController?.signal.aborted && !closed.value) throw new AbortError('query aborted by its abortController')
  if (failed) throw new Error(failed.errors?.join('; ') || `the turn ended with ${failed.subtype}`)
}

/** Prompts mods submitted run as their own turns: those of a turn once it ends, those of session.start before the first. */
async function* drainQueued(session: Session): AsyncGenerator<SDKMessage, void, undefined> {
  while (session.queued.length > 0) {
    yield* recorded(session, runTurn(session, session.queued.shift()!))
  }
}

/** Relays a turn's messages, the result last, each through session.message before the caller sees it. */
async function* recorded(session: Session, turn: AsyncGenerator<SDKMessage, SDKResultMessage, undefined>): AsyncGenerator<SDKMessage, SDKResultMessage, undefined> {
  // Mods whose files changed are reloaded between turns (the turn's generator has not started yet).
  if (session.reloader?.hasPending) yield* reloaded(session)
  const record = session.host.bus.has('session.message')
  const display = new Display(session)
  for (;;) {
    const step = await unlessStalled(turn.next())
    const next: IteratorResult<SDKMessage, SDKResultMessage> = step === STALLED ? { done: true, value: yield* endStalled(session) } : step
    // Notices mods appended ($.session.append) while nothing drained the outbox come first; but when
    // the turn relayed this message from the outbox itself, those left there were posted after it
    // (a task's notification after its task_updated) and the turn relays them next.
    if (!session.agent && !session.relayedFromOutbox(next.value)) {
      while (session.outbox.length > 0) {
        const notice = session.outbox.shift()!
        if (record && recordable(notice)) await session.host.bus.emit('session.message', { message: notice, shown: true })
        yield notice
      }
    }
    // A replayed prompt was recorded as it entered the history.
    if (record && recordable(next.value) && !('isReplay' in next.value && next.value.isReplay) && !UNRECORDED.has(next.value)) {
      await session.host.bus.emit('session.message', { message: next.value, shown: true })
    }
    // Recorded as it is, shown as message.display handlers have it (held back while a line is incomplete).
    const shown = await display.show(next.value)
    for (const m of shown) yield m
    if (next.done) return shown.at(-1) as SDKResultMessage
  }
}

/** A subagent's messages (they carry parent_tool_use_id) were recorded by its own loop; tool progress is only shown. */
function recordable(m: SDKMessage): boolean {
  return m.type !== 'tool_progress' && !('parent_tool_use_id' in m && m.parent_tool_use_id)
}

/**
 * Reloads the changed mods and says so, once, in the stream: an info line for each reload, a
 * warning for each that kept its last good version (also logging it would show it twice).
 */
async function* reloaded(session: Session): AsyncGenerator<SDKMessage, void, undefined> {
  for (const o of await session.reloader!.applyPending()) {
    yield session.stamp({ type: 'system', subtype: 'informational', level: o.ok ? 'info' : 'warning', content: o.message })
  }
}

/**
 * The reports of background tasks that ended while a turn ran are answered in one turn, each
 * after the other, as Claude Code does: a turn apiece would cost a model request apiece. The
 * turn's origin names the first task.
 */
function withWaitingReports(message: SDKUserMessage, queue: InputQueue): SDKUserMessage {
  if (message.origin?.kind !== 'task-notification') return message
  const more = queue.takeNotifications()
  if (more.length === 0) return message
  const text = [message, ...more].map((m) => m.message.content).filter((c) => typeof c === 'string').join('\n\n')
  return { ...message, message: { role: 'user', content: text } }
}

/** `verbatim`: the query's `verbatimPrompts`; a message the caller marked `client_composed` is delivered as written too. */
function turnInput(message: SDKUserMessage, verbatim: boolean): TurnInput {
  const content = message.message.content
  const asWritten = (verbatim || message.client_composed === true) && message.origin?.kind !== 'task-notification'
  const id = { ...(message.uuid ? { uuid: message.uuid } : {}), sent: content, ...(asWritten ? { verbatim: true } : {}) }
  const origin: PromptOrigin = message.origin?.kind === 'task-notification' ? { kind: 'task-notification', taskId: message.origin.task_id ?? '' } : { kind: 'sdk' }
  // A `!` command's blocks enter as they are: no text of them is a prompt to submit.
  if (message.origin?.kind === 'bash' && typeof content !== 'string') return { text: '', origin: { kind: 'bash' }, content, ...id }
  if (typeof content === 'string') return { text: content, origin, ...id }
  const texts = content.filter((b) => b.type === 'text') as Extract<ContentBlockParam, { type: 'text' }>[]
  const text = texts.map((b) => b.text).join('\n')
  return { text, origin, content: promptBlocks(content).filter((b) => b.type !== 'text'), ...id }
}

function assertPrompt(prompt: unknown): void {
  if (typeof prompt !== 'string' && !(prompt && typeof (prompt as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function')) {
    throw new ModloopError('MODLOOP_ERR_USAGE', 'query(): prompt must be a string or an async iterable of user messages')
  }
}
