import type { ContentBlockParam, MessageParam, TextBlockParam } from '@anthropic-ai/sdk/resources/messages'
import type { PromptOrigin, Usage } from '../events/types.js'
import type { ModHost } from '../mod/host.js'
import { canonicalModel, contextWindow, costBasis, costUsd, maxOutputTokens } from '../model/pricing.js'
import type { Model, ToolDefinition } from '../model/types.js'
import { ToolRegistry } from '../tools/registry.js'
import type { LinesChanged } from '../tools/tool.js'
import { addUsage, uuid, zeroUsage, type ModelUsage, type SDKMessage } from './messages.js'
import type { SessionOptions } from './session-options.js'
import type { EffortLevel } from '../model/capabilities.js'
import { VERSION } from '../version.js'
import type { CommandInfo } from './command.js'
import type { InputQueue } from './input-queue.js'
import type { CommandRan, TurnStarted } from './turn.js'
import { ContextMeter } from './context-meter.js'
import { CompactionQueue } from './compact.js'

/** A subagent's place: who spawned it, and how deep it runs. */
export interface AgentScope {
  agentId: string
  parentToolUseId: string
  depth: number
  type: string
}

/**
 * One conversation: its history as the next request will send it, its tools, and its running
 * totals. Core keeps only what the loop needs; the runtime adds its own fields (runtime/session-fields.ts),
 * and features keep their own state through `$.state`.
 * A subagent runs in a child session: its own history and tools, the root's id, totals and outbox.
 */
export class Session {
  /** Changes only when /clear starts a new conversation (renew). */
  id: string
  /** Where the session works: the one it opened in, until `$.session.move` moves it (core/loop/move.ts). */
  cwd: string
  readonly tools: ToolRegistry
  readonly root: Session
  /** Messages produced off the main stream (subagents), yielded by the root's running turn. */
  readonly outbox: SDKMessage[] = []
  /** The messages drainWhile handed on: whatever was still in the outbox then was posted after them. */
  private readonly relayed = new WeakSet<SDKMessage>()
  private wake: (() => void) | undefined
  readonly messages: MessageParam[] = []
  /** How big `messages` is in tokens, as the next request would send it. */
  readonly meter = new ContextMeter(this.messages)
  /** What compactions queued for the caller's stream. */
  readonly compactions = new CompactionQueue()
  readonly sectionCache = new Map<string, string | null>()
  readonly describeCache = new Map<string, { description: string; isHidden: boolean; isDeferred: boolean }>()
  readonly modelUsage: Record<string, ModelUsage> = {}
  readonly denials: { tool_name: string; tool_use_id: string; tool_input: unknown }[] = []
  /** Streaming input waiting while a turn runs (streaming-input sessions only). */
  input: InputQueue | undefined
  /**
   * A subagent's messages from elsewhere in the session (SendMessage) and the events of its own
   * watches, joined to its next tool round. An `event` left unread when its run ends is dropped:
   * it was about that run, and no reason to resume it.
   */
  readonly inbox: { text: string; event?: true }[] = []
  /** Slash commands mods registered, by name. */
  readonly commands = new Map<string, CommandInfo>()
  /** Running and finished subagents of this root session, by id. */
  readonly agents = new Map<string, AgentScope>()
  /** Agent types mods registered ($.agent.register), by name, with the mod that registered each: init's `agents`. */
  readonly agentTypes = new Map<string, { name: string; description: string; mod: string }>()
  /** Prompts mods submitted with $.prompt.submit (and commands with $.command.run), run after the current turn as their origin raised them. */
  readonly queued: { text: string; origin: PromptOrigin; content?: ContentBlockParam[]; started?: TurnStarted; ran?: CommandRan }[] = []
  totalCostUsd = 0
  /** Context model.switch handlers returned, for the next request of the main conversation. */
  readonly switchContext: string[] = []
  /** User-role rows mods appended ($.session.append) that the model has not been sent yet (delivered by core/loop/held.ts). */
  readonly appended: TextBlockParam[] = []
  /** Environment updates of moves the model has not been told of yet (delivered by core/loop/held.ts). */
  readonly envUpdates: string[] = []
  /** How long the model requests of this session took (ms), subagents included: `/cost`'s API duration. */
  apiMs = 0
  /** Lines the session's tools added to and removed from files, subagents included: `/cost`'s code changes. */
  readonly linesChanged: LinesChanged = { added: 0, removed: 0 }
  /** What a resumed session had spent before this query: maxBudgetUsd counts only spend since. */
  costBeforeQuery = 0
  userTurns = 0
  /** Results the query has sent so far: the next one's result_index. */
  results = 0
  model: string
  /**
   * The effort asked for, before clamping to the model: the option's until `/effort` sets another
   * (undefined: the settings' effortLevel, else the model's default; null: the model's default
   * over the settings' too, as Query.applyFlagSettings's `effortLevel: null` asks).
   */
  effort: EffortLevel | null | undefined
  started = false
  /** Whether the session takes more input once its prompt is answered (session.start's waitsForInput); false for a one-prompt run. */
  waitsForInput = true
  /** When the session opened (ms since the epoch), for `$.session.usage()`. */
  readonly startedAt = Date.now()
  /** The `system`/`init` message each turn's stream opens with, as the runtime that opened the session builds it. */
  initMessage: (() => Promise<SDKMessage>) | undefined
  ended = false
  /** Where the session is kept (session.start's transcriptPath); empty when the host keeps no sessions. */
  location = ''
  /** Lets go of the session in its store (its lock), once it ends or is cleared. */
  release: (() => void) | undefined
  /** A tool call a `defer` verdict held back: the next turn raises it again first (core/loop/defer.ts). */
  deferred: { id: string; name: string; input: unknown } | undefined
  /** The usage of the last response on the main stream: how full the context is (getContextUsage). */
  lastUsage: Usage | undefined
  /** Why no turn can run (a model script that does not parse): each turn ends turn_setup_failed with it. */
  setupError: Error | undefined
  /** Set while a turn runs: aborting it interrupts that turn. */
  turnAbort: AbortController | undefined
  /** The id of the turn that runs (its turn.start's), for events raised outside the loop (message.display). */
  turnId: string | undefined

  constructor(
    readonly host: ModHost,
    readonly llm: Model,
    readonly options: SessionOptions & { cwd: string },
    model: string,
    parent?: { session: Session; agent: AgentScope; tools: ToolRegistry },
  ) {
    this.root = parent?.session.root ?? this
    this.agent = parent?.agent
    this.tools = parent?.tools ?? new ToolRegistry()
    this.id = parent ? this.root.id : options.sessionId ?? uuid()
    this.cwd = options.cwd
    this.model = model
    this.effort = options.effort
  }

  readonly agent: AgentScope | undefined

  /**
   * A new conversation in this session (/clear): a new id, no history, and its cost, tokens, API
   * time and code changes counted from zero, as Claude Code's /clear resets them (spec §6.1).
   */
  renew(): void {
    this.id = uuid()
    this.messages.length = 0
    this.linesChanged.added = this.linesChanged.removed = 0
    this.sectionCache.clear()
    this.userTurns = 0
    this.totalCostUsd = 0
    this.costBeforeQuery = 0
    this.apiMs = 0
    for (const model of Object.keys(this.modelUsage)) delete this.modelUsage[model]
    this.deferred = undefined
    this.lastUsage = undefined
    this.appended.length = 0
  }

  /** Queues a message for the root's stream and wakes whoever waits on it. */
  post(message: SDKMessage): void {
    this.root.outbox.push(message)
    this.root.wake?.()
  }

  /** Takes the outbox messages past `mark` (an earlier outbox length), each counted as relayed by the one who yields them. */
  takePostedSince(mark: number): SDKMessage[] {
    const root = this.root
    const taken = root.outbox.splice(mark)
    for (const message of taken) root.relayed.add(message)
    return taken
  }

  /** Whether drainWhile took `message` from the outbox (so the messages still there came after it). */
  relayedFromOutbox(message: SDKMessage): boolean {
    return this.root.relayed.has(message)
  }

  /** Yields outbox messages while `work` runs, then returns its value. */
  async *drainWhile<T>(work: Promise<T>): AsyncGenerator<SDKMessage, T, undefined> {
    const root = this.root
    let settled: { ok: true; value: T } | { ok: false; error: unknown } | undefined
    work.then((value) => { settled = { ok: true, value } }, (error: unknown) => { settled = { ok: false, error } }).finally(() => root.wake?.())
    for (;;) {
      while (root.outbox.length > 0) {
        const message = root.outbox.shift()!
        root.relayed.add(message)
        yield message
      }
      if (settled) {
        if (settled.ok) return settled.value
        throw settled.error
      }
      await new Promise<void>((resolve) => { root.wake = resolve })
      root.wake = undefined
    }
  }

  readonly version = VERSION

  /**
   * The session's environment: a copy of options.env (which replaces this process's, spec §1.3),
   * so `$.env.set` changes this session and not the caller's object; else process.env itself.
   */
  get env(): Record<string, string | undefined> {
    if (this.root !== this) return this.root.env
    return (this.ownEnv ??= this.options.env ? { ...this.options.env } : process.env)
  }

  private ownEnv: Record<string, string | undefined> | undefined

  /** Records one response's usage and cost on the root session (subagents included); returns the cost. */
  account(model: string, usage: Usage): number {
    if (this.root !== this) return this.root.account(model, usage)
    // A request that failed before any answer used nothing: its model is not listed, as in Claude Code.
    if (!this.modelUsage[model] && usage.input_tokens + usage.output_tokens + usage.cache_read_input_tokens + usage.cache_creation_input_tokens === 0) return 0
    const cost = costUsd(model, usage)
    this.totalCostUsd += cost
    const m = (this.modelUsage[model] ??= {
      inputTokens: 0, outputTokens: 0, cacheReadInputTokens: 0, cacheCreationInputTokens: 0, webSearchRequests: 0,
      costUSD: 0, contextWindow: contextWindow(model, this.env), maxOutputTokens: maxOutputTokens(model),
    })
    m.inputTokens += usage.input_tokens
    m.outputTokens += usage.output_tokens
    m.cacheReadInputTokens += usage.cache_read_input_tokens
    m.cacheCreationInputTokens += usage.cache_creation_input_tokens
    m.webSearchRequests += usage.server_tool_use?.web_search_requests ?? 0
    m.costUSD += cost
    // Totals restored from an older transcript may lack these: they start from zero.
    m.thinkingTokens = (m.thinkingTokens ?? 0) + (usage.output_tokens_details?.thinking_tokens ?? 0)
    m.cacheCreationEphemeral5mInputTokens = (m.cacheCreationEphemeral5mInputTokens ?? 0) + (usage.cache_creation?.ephemeral_5m_input_tokens ?? 0)
    m.cacheCreationEphemeral1hInputTokens = (m.cacheCreationEphemeral1hInputTokens ?? 0) + (usage.cache_creation?.ephemeral_1h_input_tokens ?? 0)
    if (m.canonicalModel === undefined) Object.assign(m, { canonicalModel: canonicalModel(model), provider: 'firstParty', costBasis: costBasis(model) })
    return cost
  }

  /** Counts lines a tool changed on the root session, so a subagent's edits are the session's. */
  countLines(lines: LinesChanged): void {
    this.root.linesChanged.added += lines.added
    this.root.linesChanged.removed += lines.removed
  }

  /** Tool definitions for a request, descriptions through `tool.describe` once per tool per session. */
  async toolDefinitions(): Promise<ToolDefinition[]> {
    const defs: ToolDefinition[] = []
    for (const tool of this.tools.list()) {
      let described = this.describeCache.get(tool.name)
      if (described === undefined) {
        const r = this.host.bus.has('tool.describe')
          ? await this.host.bus.emit('tool.describe', { tool: tool.name, description: tool.description, provider: tool.mod ?? 'core' })
          : { description: tool.description }
        described = { description: r.description, isHidden: r.isHidden === true, isDeferred: r.isDeferred === true }
        this.describeCache.set(tool.name, described)
      }
      if (described.isHidden) continue
      if (!described.isDeferred) {
        defs.push({ name: tool.name, description: described.description, input_schema: this.tools.schemaOf(tool) })
        continue
      }
      // Most requests leave a deferred tool's schema out (until a search loads it): it is
      // converted from zod when first read, not for every tool at start-up.
      const tools = this.tools
      defs.push({ name: tool.name, description: described.description, get input_schema() { return tools.schemaOf(tool) }, defer_loading: true })
    }
    return defs
  }

  usageSnapshot(): Usage {
    const u = zeroUsage()
    for (const m of Object.values(this.modelUsage)) {
      addUsage(u, {
        input_tokens: m.inputTokens, output_tokens: m.outputTokens, cache_read_input_tokens: m.cacheReadInputTokens, cache_creation_input_tokens: m.cacheCreationInputTokens,
        ...(m.cacheCreationEphemeral5mInputTokens !== undefined ? { cache_creation: { ephemeral_5m_input_tokens: m.cacheCreationEphemeral5mInputTokens, ephemeral_1h_input_tokens: m.cacheCreationEphemeral1hInputTokens ?? 0 } } : {}),
      })
    }
    return u
  }

  stamp<M extends Omit<SDKMessage, 'uuid' | 'session_id'>>(message: M): M & { uuid: string; session_id: string } {
    return { ...message, uuid: uuid(), session_id: this.id }
  }
}
