import type { ModDefinition } from '../mod/define.js'
import type { ModHost } from '../mod/host.js'
import type { Model } from '../model/types.js'
import type { CanUseTool } from '../tools/pipeline.js'
import type { SDKUserMessage } from './messages.js'

export type SystemPromptOption = string | { type: 'preset'; preset?: 'claude_code' | 'modloop'; append?: string }

/** A mod for one query: a specifier (path, package, built-in name), with options, or a definition. */
export type ModSpec = string | [string, Record<string, unknown>] | ModDefinition

/** `query()` options; names follow the Agent SDK's `Options` where we offer the same thing. */
export interface QueryOptions {
  model?: string
  fallbackModel?: string
  maxTurns?: number
  maxBudgetUsd?: number
  systemPrompt?: SystemPromptOption
  appendSystemPrompt?: string
  cwd?: string
  abortController?: AbortController
  includePartialMessages?: boolean
  /** Which distribution: a config file path or package name; default: discovered from cwd. */
  config?: string
  /** Extra mods for this query, loaded after the distribution's. */
  mods?: ModSpec[]
  /** Load no distribution at all: only `mods`. */
  bare?: boolean
  /** Environment for this query (process.env when absent). */
  env?: Record<string, string | undefined>
  permissionMode?: string
  allowedTools?: string[]
  disallowedTools?: string[]
  /** Extra working directories (`--add-dir`). */
  additionalDirectories?: string[]
  /** Trust the workspace for this run (`--trust-workspace`). */
  trustWorkspace?: boolean
  canUseTool?: CanUseTool
  sessionId?: string
  maxTokens?: number
  /** The model implementation: e.g. a scripted model. Default: the Anthropic API. */
  modelProvider?: Model
  /** A model script (file path or value) served by the in-process scripted model. */
  script?: unknown
  /** A host already loaded (tests, embedding); the query binds it. */
  host?: ModHost
  strictMods?: boolean
  /** Where load errors and mod logs go (default: stderr for warnings and errors). */
  log?: (line: string) => void
}

export type PromptInput = string | AsyncIterable<SDKUserMessage>

export const DEFAULT_MODEL = 'claude-sonnet-4-5'

export function resolveModelName(options: QueryOptions, configModel?: string): string {
  const env = options.env ?? process.env
  return options.model ?? configModel ?? env.ANTHROPIC_MODEL ?? DEFAULT_MODEL
}
