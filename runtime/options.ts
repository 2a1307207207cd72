import type { ModDefinition } from '../core/mod/define.js'
import type { Builtins } from './loader/types.js'
import type { ModHost } from '../core/mod/host.js'
import type { Model } from '../core/model/types.js'
import { DEFAULT_MODEL, type SessionOptions } from '../core/loop/session-options.js'
import { resolveAlias } from '../core/model/aliases.js'
import type { SDKUserMessage } from '../core/loop/messages.js'
import type { SdkOnlyOptions, SystemPromptOption } from './sdk-options.js'
import type { McpServerConfig } from '../core/mod/session-capabilities.js'

export type { SystemPromptOption }

/** A mod for one query: a specifier (path, package, built-in name), with options, or a definition. */
export type ModSpec = string | [string, Record<string, unknown>] | ModDefinition

declare module '../core/loop/session-options.js' {
  /**
   * `query()` options: those core acts on (core/loop/session-options.ts), every option of the Agent
   * SDK's `Options` (those modloop took on later are in `SdkOnlyOptions`), then modloop's own. An
   * option that is neither is a type error and, at run time, a warning naming it (option-names.ts).
   */
  interface SessionOptions extends SdkOnlyOptions {  /**
     * Once the input has ended (a single prompt's turn is over), how long the session still waits
     * for running background tasks before it stops them (`-p --max-wait-tasks`); unbounded when absent.
     */
    maxWaitTasksMs?: number
    systemPrompt?: SystemPromptOption
    appendSystemPrompt?: string
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
    permissionMode?: string
    allowedTools?: string[]
    disallowedTools?: string[]
    /** Extra working directories (`--add-dir`). */
    additionalDirectories?: string[]
    /**
     * `--settings`: extra settings files or inline JSON, read after the user, project and local ones
     * (their `hooks`, `permissions`). The Agent SDK's forms are taken too: one path, or a settings object.
     */
    settings?: string | string[] | Record<string, unknown>
    /** Emit `system` hook_started / hook_response messages for every settings hook that runs. */
    includeHookEvents?: boolean
    /** Trust the workspace for this run (`--trust-workspace`). */
    trustWorkspace?: boolean
    /** Must be true for the session to enter `bypassPermissions` later (`Query.setPermissionMode`). */
    allowDangerouslySkipPermissions?: boolean
    /** MCP servers for this query (the mcp mod reads them as the launch flags' `mcpServers`). */
    mcpServers?: Record<string, McpServerConfig>
    /** Use only `mcpServers`: no servers from `.mcp.json`, `.claude.json` or the modloop config (`--strict-mcp-config`). */
    strictMcpConfig?: boolean
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
     * the runtime's own `query()` has no built-in set, so without it only a given `host` or object mods load.
     */
    builtins?: Builtins
    strictMods?: boolean
    /** Reload mods whose files changed, between turns (`--watch-mods`). */
    watchMods?: boolean
  }
}

/** What query() takes: the session options with everything the runtime added to them. */
export type QueryOptions = SessionOptions

export type PromptInput = string | AsyncIterable<SDKUserMessage>

/** The model a new session starts on: an alias (`--model sonnet`, settings, ANTHROPIC_MODEL) names its id, as /model's does. */
export function resolveModelName(options: QueryOptions, configModel?: string): string {
  const env = options.env ?? process.env
  return resolveAlias(options.model ?? configModel ?? env.ANTHROPIC_MODEL ?? DEFAULT_MODEL, env)
}
