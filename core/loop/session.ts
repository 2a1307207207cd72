import type { MessageParam } from '@anthropic-ai/sdk/resources/messages'
import type { Usage } from '../events/types.js'
import type { ModHost } from '../mod/host.js'
import { contextWindow, costUsd, maxOutputTokens } from '../model/pricing.js'
import type { Model, ToolDefinition } from '../model/types.js'
import { ToolRegistry } from '../tools/registry.js'
import { addUsage, uuid, zeroUsage, type ModelUsage, type SDKMessage } from './messages.js'
import type { QueryOptions } from './options.js'
import { VERSION } from '../version.js'

/**
 * One conversation: its history as the next request will send it, its tools, and its running
 * totals. Core keeps only what the loop needs; features keep their own state through `$.state`.
 */
export class Session {
  readonly id: string
  readonly cwd: string
  readonly tools = new ToolRegistry()
  readonly messages: MessageParam[] = []
  readonly sectionCache = new Map<string, string | null>()
  readonly describeCache = new Map<string, string>()
  readonly modelUsage: Record<string, ModelUsage> = {}
  readonly denials: { tool_name: string; tool_use_id: string; tool_input: unknown }[] = []
  /** Prompts mods submitted with $.prompt.submit, run after the current turn. */
  readonly queued: string[] = []
  totalCostUsd = 0
  userTurns = 0
  model: string
  permissionMode: string
  started = false
  ended = false
  /** Set while a turn runs: aborting it interrupts that turn. */
  turnAbort: AbortController | undefined

  constructor(
    readonly host: ModHost,
    readonly llm: Model,
    readonly options: QueryOptions & { cwd: string },
    model: string,
  ) {
    this.id = options.sessionId ?? uuid()
    this.cwd = options.cwd
    this.model = model
    this.permissionMode = options.permissionMode ?? 'default'
  }

  readonly version = VERSION

  get env(): Record<string, string | undefined> {
    return this.options.env ?? process.env
  }

  /** Records one response's usage and cost; returns the cost. */
  account(model: string, usage: Usage): number {
    const cost = costUsd(model, usage)
    this.totalCostUsd += cost
    const m = (this.modelUsage[model] ??= {
      inputTokens: 0, outputTokens: 0, cacheReadInputTokens: 0, cacheCreationInputTokens: 0, webSearchRequests: 0,
      costUSD: 0, contextWindow: contextWindow(model), maxOutputTokens: maxOutputTokens(model),
    })
    m.inputTokens += usage.input_tokens
    m.outputTokens += usage.output_tokens
    m.cacheReadInputTokens += usage.cache_read_input_tokens
    m.cacheCreationInputTokens += usage.cache_creation_input_tokens
    m.costUSD += cost
    return cost
  }

  /** Tool definitions for a request, descriptions through `tool.describe` once per tool per session. */
  async toolDefinitions(): Promise<ToolDefinition[]> {
    const defs: ToolDefinition[] = []
    for (const tool of this.tools.list()) {
      let description = this.describeCache.get(tool.name)
      if (description === undefined) {
        description = this.host.bus.has('tool.describe')
          ? (await this.host.bus.emit('tool.describe', { tool: tool.name, description: tool.description, provider: tool.mod ?? 'core' })).description
          : tool.description
        this.describeCache.set(tool.name, description)
      }
      defs.push({ name: tool.name, description, input_schema: this.tools.schemaOf(tool) })
    }
    return defs
  }

  usageSnapshot(): Usage {
    const u = zeroUsage()
    for (const m of Object.values(this.modelUsage)) {
      addUsage(u, { input_tokens: m.inputTokens, output_tokens: m.outputTokens, cache_read_input_tokens: m.cacheReadInputTokens, cache_creation_input_tokens: m.cacheCreationInputTokens })
    }
    return u
  }

  stamp<M extends Omit<SDKMessage, 'uuid' | 'session_id'>>(message: M): M & { uuid: string; session_id: string } {
    return { ...message, uuid: uuid(), session_id: this.id }
  }
}
