import type { MessageParam } from '@anthropic-ai/sdk/resources/messages'
import type { CommandRunResult, PromptSubmitResult, SessionCompactResult, WorktreeCreateInput, WorktreeRemoveInput } from '../events/types.js'
import type { PromptAttachment, CompleteRequest, CompleteResult, ForkRequest, ForkResult, ToolRegistration, SpawnAnswer, SpawnRequest, LiveTaskInfo, TaskEndSpec, TaskProgressSpec, TaskStartSpec } from './contracts.js'

/**
 * `$`: the capabilities a mod gets, named as spec/mods.md §4 names them so a mod written for
 * that model reads the same here. It holds only what modloop provides: every method here is
 * served by the host, the loop or a mod of the core set (a method the mod model names that a
 * terminal and headless runtime has no counterpart for is simply absent). Outside a session
 * (registration, a bare host) a method that needs one fails with MODLOOP_ERR_NOT_BOUND or
 * MODLOOP_ERR_NO_PROVIDER naming it. What mods offer each other is a capability
 * (`$.capability`, typed by declaration merging on `Capabilities` in capabilities.ts).
 */

import type { CapabilityApi } from './capabilities.js'

export interface ModLog {
  debug(text: string): void
  info(text: string): void
  warn(text: string): void
  error(text: string): void
}

export interface StateRef { plugin: string; key: string; id?: string }

/** The mod model's schema-only tool shape; `$.tool.register` also takes an implementation (`ToolRegistration`). */
export interface ToolSpec {
  name: string
  description: string
  inputSchema?: Record<string, unknown>
  isReadOnly?: boolean
}

/** Every method `$` serves through a provider, by namespace: what `buildApi` builds and the docs list. */
export const API_METHODS = {
  ui: ['ask'],
  command: ['register', 'unregister', 'run', 'list'],
  tool: ['register', 'unregister', 'call', 'check', 'list'],
  agent: ['spawn', 'register', 'list'],
  // The tasks a mod runs (subagents, background shells) as the stream announces them: a modloop addition.
  task: ['start', 'end', 'progress', 'stop', 'list', 'notify'],
  // Worktrees for isolated work, made and removed through events WorktreeCreate/WorktreeRemove hooks answer: a modloop addition.
  worktree: ['create', 'remove'],
  model: ['complete', 'fork'],
  prompt: ['submit'],
  turn: ['abort'],
  // `clear` (/clear's new conversation), `mods` (the loaded mods) and `hold` (a one-prompt run kept open) are modloop additions.
  session: ['messages', 'cwd', 'root', 'model', 'turns', 'id', 'usage', 'version', 'compact', 'append', 'clear', 'mods', 'move', 'hold'],
  config: ['list', 'set'],
  settings: ['read'],
} as const

/** What `$.ui.ask` takes: the choices (2–4, fewer padded with Yes/No), or those with a header (≤ 12 chars; the mod's name by default) and multi-select. */
export type AskOptions = string[] | { options?: string[]; header?: string; multiSelect?: true }

/** One loaded mod, as `$.session.mods()` lists it. */
export interface ModInfo {
  name: string
  description?: string
  version?: string
  /** The file or package it came from, when it was loaded from one. */
  source?: string
}

export interface ModApiCore {
  readonly plugin: { readonly name: string; readonly root?: string; readonly version?: string }
  /** This mod's options, parsed by its schema. */
  readonly options: Readonly<Record<string, unknown>>
  /** Aborts when the mod is disposed or the host closes. */
  readonly signal: AbortSignal
  readonly log: ModLog
  readonly ui: {
    log(text: string, options?: { to?: 'transcript' | 'debug' }): void
    /**
     * Asks the person a question with choices (the AskUserQuestion dialog) and resolves to the
     * chosen label (several, comma-joined, with multiSelect) or the text typed under "Other".
     * Rejects when the person dismisses it, and where no one can answer (`-p`). It has no event
     * of its own: it runs as a `tool.call` of AskUserQuestion through every mod's handlers but
     * the caller's, so a mod that answers AskUserQuestion answers it too. The wait is not the
     * asking handler's own time: its mod's handlers are paused until the answer comes.
     */
    ask(question: string, options?: AskOptions): Promise<string>
  }
  readonly tool: {
    register(spec: ToolSpec | ToolRegistration): Promise<{ tool: string }>
    /** Removes a tool this mod registered. */
    unregister(args: { tool: string }): Promise<{ isRemoved: boolean }>
    /** Runs a tool call as the model's would: through tool.call, the permission check and, for an ask, the session's approver (canUseTool, the terminal's dialog). `consent` (the person's words for the press that raised it) is not passed to the tool. Rejects for an unknown tool, and when the turn it runs in is aborted. */
    call(args: { tool: string; consent?: string; [arg: string]: unknown }): Promise<{ result?: unknown; text?: string; isError?: true; deny?: string }>
    check(args: { tool: string; input: unknown }): Promise<{ decision: 'allow' | 'ask' | 'deny' | 'defer'; reason?: string; rule?: string }>
    /** Each tool; an MCP server's names its server and where the server was configured. */
    list(): Promise<{ name: string; description: string; mcpServer?: { name: string; source: string } }[]>
  }
  readonly command: {
    /** `kind`: `local` answers without the model (/compact, /cost; raises no UserPromptSubmit), `prompt` expands into a prompt, `skill` is a skill run by name (init lists these as `skills`). */
    register(spec: { name: string; description: string; argumentHint?: string; kind?: 'local' | 'prompt' | 'skill' }): { command: string }
    /** Removes a command this mod registered (a skill deleted from disk), from `list`, init's `slash_commands` and supportedCommands; false when this mod has none by that name. */
    unregister(args: { command: string }): { isRemoved: boolean }
    /**
     * Runs `/command args` as if typed, once the session is idle; its command.run has origin `{ kind: 'plugin', name: <this mod> }`.
     * Resolves with command.run's answer once the command ran; rejects a name `list` does not list (an alias such as /reset included),
     * a call from a handler the running turn or the session's start waits on (it could only wait for itself), and (`MODLOOP_ERR_NOT_RUN`)
     * a command whose turn ended before it ran or whose session ended first.
     */
    run(args: { command: string; args?: string }): Promise<CommandRunResult>
    list(): { name: string; description: string; source: string; plugin: string; kind?: 'local' | 'prompt' | 'skill' }[]
  }
  readonly agent: {
    /** Starts a subagent; `done` (a modloop addition) resolves to its final report. */
    spawn(req: SpawnRequest): Promise<SpawnAnswer>
    /** Offers an agent type (the Agent tool's `subagent_type`), listed in init's `agents`; the mod still spawns it. */
    register(spec: { name: string; description?: string }): { agent: string }
    list(): { name: string; description: string; mod: string }[]
  }
  readonly task: {
    /**
     * Announces a task this mod runs: `task.start`, then the stream's task_started (and, in the
     * background, background_tasks_changed). `stop` and `toBackground` are how Query.stopTask
     * and Query.backgroundTasks reach it.
     */
    start(spec: TaskStartSpec): Promise<void>
    /** Announces its end: task.update and task_updated, task.end and task_notification; a background task's `notification` is queued as a turn of its own. */
    end(spec: TaskEndSpec): Promise<void>
    /** Tells how far a running task has got: the stream's task_progress, after its task_started. */
    progress(spec: TaskProgressSpec): Promise<void>
    /** Stops a running task, whichever mod runs it (it ends `stopped`). */
    stop(taskId: string): Promise<void>
    /** The running tasks. */
    list(): LiveTaskInfo[]
    /**
     * Words from a task for the main conversation while the task runs (a watch's events, a
     * subagent's message to "main"): queued as `task.end`'s report is, they join a running turn at
     * its next tool round or run as a turn of their own after the answer. False when the session
     * takes no more prompts.
     */
    notify(taskId: string, text: string): boolean
  }
  readonly worktree: {
    /**
     * Raises worktree.create: a handler (a WorktreeCreate hook) may make the worktree itself and
     * answer its path; beneath every handler `make` makes it. `made` says whether `make` did, so
     * the caller knows whether git can tell its changes and remove it.
     */
    create(args: WorktreeCreateInput & { make: () => Promise<{ path: string }> }): Promise<{ path: string; made: boolean } | { deny: string }>
    /** Raises worktree.remove for a worktree a handler made (`made` false): the handlers (a WorktreeRemove hook) remove it. */
    remove(args: WorktreeRemoveInput): Promise<void>
  }
  readonly model: {
    /** One completion through the session's model, with no tools but the API's own (`serverTools`: web search); its cost counts in the session's. Its system prompt is the main loop's identity block (its `intro` section, as prompt.section answered it; none under a custom system prompt), then `system`. `prompt` and `system` may be arrays of `{ text, cache? }` blocks; `cache: true` ends a block with a cache breakpoint. Rejects, naming the field, for an empty prompt, a block with no text or with a `cache_control` of its own, a fifth block marked `cache` (the API takes four), a `maxTokens` that is not a whole number from 1, an `effort` that is not a level, or a `timeoutMs` outside 1..2147483647; a cap past the model's own is lowered to it, and so is an effort. */
    complete(req: CompleteRequest, options?: { signal?: AbortSignal }): Promise<CompleteResult>
    /**
     * One completion over the main conversation as the loop sends it (its model, system prompt,
     * tools and messages) plus `prompt`: the prompt cache serves most of it. No tool runs; the
     * answer is its text. Its cost counts in the session's.
     */
    fork(req: ForkRequest, options?: { signal?: AbortSignal }): Promise<ForkResult>
  }
  readonly prompt: {
    /**
     * Runs `text` as a turn of its own once the running one ends (at once when the session waits for input), raised as prompt.submit with origin `{ kind: 'plugin', name: <this mod>, asUser? }`; an `@file` mention in it is not read.
     * Resolves when that turn starts, with prompt.submit's answer (`{ drop }` if a handler dropped it); rejects (`MODLOOP_ERR_NOT_RUN`) if it ended before, or the session ended first.
     * So never await it in a handler that turn waits on (session.start, the running turn's own events): it would wait forever.
     * `attachments` follow the text in the user message: images (`image/jpeg|png|gif|webp`) and documents (`application/pdf`, `text/plain`),
     * each `{ type, mediaType, base64, filename? }`; a bad one (audio included) is refused naming the field, e.g. `attachments[0].mediaType`.
     */
    submit(args: { text: string; attachments?: PromptAttachment[]; asUser?: true }): Promise<PromptSubmitResult>
  }
  readonly turn: {
    /** Cancels the running turn; `turnId` (turn.start's) names it, and the call rejects, naming both ids, when that turn is not the one running. */
    abort(args?: { turnId: string }): Promise<void>
  }
  readonly session: {
    id(): string
    cwd(): string
    root(): string
    model(): string
    turns(): number
    /** The conversation as the next request sends it (a copy; the last 4,096 messages). */
    messages(): MessageParam[]
    /**
     * Status-line figures: `context` is the main conversation's window as the last request filled it
     * (an estimate before any request), `models` the tokens and cost spent, by model.
     */
    usage(): { startedAt: number; rateLimits: unknown[]; context: { tokens: number; window: number; percent: number }; cost: { usd: number; apiDurationMs: number }; models: Record<string, unknown>; lines: { added: number; removed: number } }
    version(): { version: number }
    compact(args?: { instructions?: string; trigger?: 'manual' | 'plugin' }): Promise<SessionCompactResult>
    /**
     * `user`: a hidden user-role row the model reads (text, or text blocks), joined to the history
     * before the main conversation's next request. `system`: a notice for the caller's stream that
     * the model never reads. `prompt_suggestion`: a guess at the person's next prompt, for the
     * caller's stream alone (never recorded).
     */
    append(args: { message: { type: 'user'; content: string | { type: 'text'; text: string }[] } | { type: 'system'; subtype?: string; [field: string]: unknown } | { type: 'prompt_suggestion'; suggestion: string } }): { message: unknown; uuid: string }
    /** Starts a new conversation (/clear). */
    clear(): Promise<unknown>
    /** Every mod loaded in this host, in load order: those that only handle events too. */
    mods(): ModInfo[]
    /**
     * Moves the main session to `cwd` (EnterWorktree): tools, subagents started after and `cwd()`
     * work there from the next request, and the model is told before it (`context`: more lines
     * for that update). `root()` stays where the session opened.
     */
    move(args: { cwd: string; context?: string[] }): void
    /**
     * Keeps a one-prompt run (session.start's `waitsForInput` false) from ending while this mod's
     * work is pending, as a background task does: the run waits, at most `--max-wait-tasks` at a
     * time, and runs what the mod submits meanwhile. `reason` names the work in the wait's notice.
     * Answers the release; the run ends once nothing holds it and no prompt waits. `quiet`: work
     * too short to name in the notice that the run waits.
     */
    hold(args: { reason: string; quiet?: boolean }): () => void
  }
  readonly config: {
    list(): { key: string; value: unknown }[]
    /**
     * Raises config.set (origin `{ kind: 'plugin', name: <this mod> }`), past this mod's own handlers; answers the value written, or
     * `{ deny }` when a handler refused it or it is not of the row's kind (`model`: a name or null, `effort`: a level or null). Rejects an unknown key.
     */
    set(args: { key: string; value: unknown }): Promise<{ value: unknown } | { deny: string }>
  }
  readonly settings: {
    /** The launch flags as a settings layer (`source: 'flag'`). */
    read(args?: { source?: string }): Record<string, unknown>
  }
  /** The named APIs mods provide each other, typed by declaration merging on `Capabilities`. */
  readonly capability: CapabilityApi
  readonly state: {
    get(ref: StateRef): { value: unknown; version: number }
    set(ref: StateRef, value: unknown, options?: { ifVersion?: number }): { isSet: boolean; version: number }
  }
  /** The session's environment: query options.env when given (it replaces this process's, as the SDK's does), else process.env. */
  readonly env: {
    get(name: string): string | undefined
    set(name: string, value: string | undefined): void
    /** A copy of the whole environment, for the child processes a mod starts. */
    all(): Record<string, string | undefined>
  }
  readonly clock: {
    now(): number
    sleep(ms: number, options?: { signal?: AbortSignal }): Promise<void>
    after(ms: number, fn: () => void): { cancel(): void }
    /** Runs `fn` every `ms` (at least 1; a smaller period, 0 included, throws naming the mod). */
    every(ms: number, fn: () => void): { cancel(): void }
  }
}

/** Augment this interface (declaration merging) to type capabilities a mod adds. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ModApiExtensions {}

export type ModApi = ModApiCore & ModApiExtensions
