import type { SessionStartInput } from '../events/types.js'
import type { ModDefinition } from '../mod/define.js'
import type { Builtins } from '../loader/types.js'
import type { ModHost } from '../mod/host.js'
import type { Model } from '../model/types.js'
import type { EffortLevel, ThinkingOption } from '../model/capabilities.js'
import type { CanUseTool } from '../tools/pipeline.js'
import type { SDKUserMessage } from './messages.js'

export type SystemPromptOption = string | { type: 'preset'; preset?: 'claude_code' | 'modloop'; append?: string }

/** A mod for one query: a specifier (path, package, built-in name), with options, or a definition. */
export type ModSpec = string | [string, Record<string, unknown>] | ModDefinition

/** An MCP server for one query, as the Agent SDK spells it; the mcp mod validates and connects it. */
export type McpServerConfig =
  | { type?: 'stdio'; command: string; args?: string[]; env?: Record<string, string>; timeout?: number }
  | { type: 'http' | 'sse'; url: string; headers?: Record<string, string>; timeout?: number }
  | { type: 'sdk'; name: string; instance: unknown; timeout?: number }

/** `query()` options; names follow the Agent SDK's `Options` where we offer the same thing. */
export interface QueryOptions {
  model?: string
  fallbackModel?: string
  maxTurns?: number
  /**
   * Once the input has ended (a single prompt's turn is over), how long the session still waits
   * for running background tasks before it stops them (`-p --max-wait-tasks`); unbounded when absent.
   */
  maxWaitTasksMs?: number
  maxBudgetUsd?: number
  systemPrompt?: SystemPromptOption
  appendSystemPrompt?: string
  cwd?: string
  abortController?: AbortController
  includePartialMessages?: boolean
  /** Which distribution: a config file path or package name; default: discovered from cwd. */
  config?: string
  /** How errors about `config` name it; default 'config option'. The CLI passes '--config', the flag its user typed. */
  configLabel?: string
  /** Extra mods for this query, loaded after the distribution's. */
  mods?: ModSpec[]
  /** Plugin directories (the Agent SDK's `plugins` option), loaded whole after `mods`, each path resolved from cwd. */
  plugins?: { type: 'local'; path: string }[]
  /** Load no distribution at all: only `mods` (specifiers, built-in names and definitions). */
  bare?: boolean
  /** Environment for this query (process.env when absent). */
  env?: Record<string, string | undefined>
  permissionMode?: string
  allowedTools?: string[]
  disallowedTools?: string[]
  /** Extra working directories (`--add-dir`). */
  additionalDirectories?: string[]
  /** `--settings`: extra settings files or inline JSON, read after the user, project and local ones (their `hooks`). */
  settings?: string[]
  /** Emit `system` hook_started / hook_response messages for every settings hook that runs. */
  includeHookEvents?: boolean
  /** Trust the workspace for this run (`--trust-workspace`). */
  trustWorkspace?: boolean
  canUseTool?: CanUseTool
  /** Must be true for the session to enter `bypassPermissions` later (`Query.setPermissionMode`). */
  allowDangerouslySkipPermissions?: boolean
  /** MCP servers for this query (the mcp mod reads them as the launch flags' `mcpServers`). */
  mcpServers?: Record<string, McpServerConfig>
  /** Use only `mcpServers`: no servers from `.mcp.json`, `.claude.json` or the modloop config (`--strict-mcp-config`). */
  strictMcpConfig?: boolean
  /** A fixed id (a UUID) for a new session; with resume or continue only together with forkSession. */
  sessionId?: string
  /** Load this session (by id) and append to it. */
  resume?: string
  /** Load the most recently active session of `cwd` (not with resume). */
  continue?: boolean
  /** With resume or continue: copy the history into a new session; the original stays untouched. */
  forkSession?: boolean
  /** With resume or continue: take the history only up to this message uuid (inclusive). */
  resumeSessionAt?: string
  /** Keep each file's content before Edit/Write change it, so Query.rewindFiles and /rewind can restore it (`--checkpoint`). */
  enableFileCheckpointing?: boolean
  /** false: write no transcript, so the session cannot be resumed (`--no-session-persistence`). Default true. */
  persistSession?: boolean
  /**
   * The Agent SDK's pass-through CLI flags (name → value, null for a bare flag). modloop honours
   * `replay-user-messages`: each prompt's user message is yielded back with its uuid (`isReplay`).
   */
  extraArgs?: Record<string, string | null>
  maxTokens?: number
  /** Reasoning effort, sent as `output_config.effort`; clamped to what the model accepts. */
  effort?: EffortLevel
  /** Thinking mode, clamped to what the model accepts; unset leaves the model's default. */
  thinking?: ThinkingOption
  /** Deprecated (use `thinking`): 0 turns thinking off, another number is a fixed budget. */
  maxThinkingTokens?: number
  /** Structured output: the turn ends when the model calls the StructuredOutput tool with input fitting `schema`. */
  outputFormat?: { type: 'json_schema'; schema: Record<string, unknown> }
  /** The model implementation: e.g. a scripted model. Default: the Anthropic API. */
  modelProvider?: Model
  /** A model script (file path or value) served by the in-process scripted model. */
  script?: unknown
  /** A host already loaded (tests, embedding); the query binds it. */
  host?: ModHost
  /**
   * The built-in mods, default distribution and scripted model. The package's `query()` fills it;
   * core's own `query()` has no built-in set, so without it only a given `host` or object mods load.
   */
  builtins?: Builtins
  strictMods?: boolean
  /** Reload mods whose files changed, between turns (`--watch-mods`). */
  watchMods?: boolean
  /** Where load errors and mod logs go (default: stderr for warnings and errors). */
  log?: (line: string) => void
  /** What session.start tells mods drives the session: `'terminal'` under the interactive terminal; absent (null) for `-p` and SDK use. */
  surface?: 'terminal'
  /** Whether a person answers at the keyboard (session.start's isInteractive); default: true exactly when `surface` is set. */
  isInteractive?: boolean
}

export type PromptInput = string | AsyncIterable<SDKUserMessage>

export const DEFAULT_MODEL = 'claude-sonnet-4-5'

export function resolveModelName(options: QueryOptions, configModel?: string): string {
  const env = options.env ?? process.env
  return options.model ?? configModel ?? env.ANTHROPIC_MODEL ?? DEFAULT_MODEL
}

/** session.start's `surface` and `isInteractive`, from the query's options. */
export function surfaceFields(options: QueryOptions): Pick<SessionStartInput, 'surface' | 'isInteractive'> {
  return { surface: options.surface ?? null, isInteractive: options.isInteractive ?? options.surface !== undefined }
}
