/**
 * The Agent SDK's `query()` options that modloop took on after its own: the types accept what an
 * application written for the official SDK passes, so the same options object type-checks against
 * modloop's `query()`. What each does here, or why it does nothing, is in `option-names.ts` and
 * docs/agent-sdk.md.
 */

/** What a callback hook is handed: the settings-hook input (hook_event_name, session_id, tool_name, …). */
export interface SdkHookInput {
  hook_event_name: string
  session_id: string
  transcript_path: string
  cwd: string
  [field: string]: unknown
}

/**
 * A callback hook: its answer is the settings-hook JSON output (`hookSpecificOutput`, `decision`,
 * `continue`, `systemMessage`, …), or `{ async: true }`. Declared as a method so an application's
 * hook typed with the official SDK's narrower input types is accepted.
 */
export type SdkHookCallback = {
  hook(input: SdkHookInput, toolUseID: string | undefined, options: { signal: AbortSignal }): Promise<unknown>
}['hook']

export interface SdkHookCallbackMatcher {
  /** The settings-hook matcher: a tool name, `A|B`, or a regular expression. */
  matcher?: string
  hooks: SdkHookCallback[]
  /** Seconds each callback may take (default 60). */
  timeout?: number
  /** `block`: a callback that throws or times out blocks the action instead of letting it run. */
  onFailure?: 'continue' | 'block'
}

/** Callback hooks by event name (PreToolUse, PostToolUse, UserPromptSubmit, Stop, SessionStart, …). */
export type SdkHooks = Partial<Record<string, SdkHookCallbackMatcher[]>>

/** A subagent for the Agent tool (the SDK's AgentDefinition); fields modloop does not use are accepted and named once. */
export interface SdkAgentDefinition {
  description: string
  prompt: string
  tools?: string[]
  disallowedTools?: string[]
  /** An alias (sonnet, opus, haiku), `inherit`, or a model id. */
  model?: string
  maxTurns?: number
  mcpServers?: unknown[]
  skills?: string[]
  initialPrompt?: string
  criticalSystemReminder_EXPERIMENTAL?: string
  autoCompactWindow?: number
  background?: boolean
  omitClaudeMd?: boolean
  memory?: 'user' | 'project' | 'local'
  effort?: string | number
  permissionMode?: string
  observer?: string
  observerMessage?: string
}

/** `systemPrompt` in all the SDK's forms, plus modloop's own `modloop` preset. */
export type SystemPromptOption =
  | string
  | string[]
  | { type: 'custom'; prompt: string | string[]; snapshot?: boolean }
  | { type: 'preset'; preset?: 'claude_code' | 'modloop'; append?: string; excludeDynamicSections?: boolean; snapshot?: boolean }

/** Accepts any function: for callbacks modloop stores but never calls. */
type AnyCallback = (...args: never[]) => unknown

export interface SdkOnlyOptions {
  /** A project root to read settings and `.claude` trees from instead of `cwd`. Not honoured: named once. */
  projectConfigRoot?: string
  /** Run the main conversation as this agent (from `agents` or `.claude/agents`): its prompt, tools and model. */
  agent?: string
  /** Subagents for the Agent tool, by name, beside those of `.claude/agents` and the config. */
  agents?: Record<string, SdkAgentDefinition>
  /** Tool-name aliases for calls the model makes (`{ Bash: 'mcp__box__bash' }`), one hop. */
  toolAliases?: Record<string, string>
  /** The built-in tools offered: a list (`[]` for none) or the whole default set. MCP tools are not affected. */
  tools?: string[] | { type: 'preset'; preset: 'claude_code' }
  /** In-process there is no runtime to choose: accepted, no effect. */
  executable?: 'bun' | 'deno' | 'node'
  /** In-process there is no runtime to start: accepted, no effect. */
  executableArgs?: string[]
  /** Per-tool settings of the built-in tools: `askUserQuestion.previewFormat`, `'markdown'` (the default) or `'html'`, how the host shows an option's preview; other keys are not read. */
  toolConfig?: { askUserQuestion?: { previewFormat?: 'markdown' | 'html'; [key: string]: unknown } }
  /** Beta headers sent with every model request (`anthropic-beta`). */
  betas?: string[]
  /** Callback hooks, run by the shell-hooks mod beside the settings hooks, with their inputs and outputs. */
  hooks?: SdkHooks
  /** Answers an MCP server's request for the user's input (elicitation); without it, the server hears `cancel`. */
  onElicitation?: OnElicitation
  /** Dialogs a tool asks the host to render. Not honoured: named once. */
  onUserDialog?: AnyCallback
  supportedDialogKinds?: string[]
  /** modloop has no background tasks that an interrupt would spare: accepted, no effect. */
  perTaskStopAffordance?: boolean
  /** A mirror of the transcript in an external store. Not honoured: named once. */
  sessionStore?: object
  sessionStoreFlush?: string
  loadTimeoutMs?: number
  /** A foreground subagent's text and thinking reach the stream too (messages with parent_tool_use_id); by default only its tool calls and results do. */
  forwardSubagentText?: boolean
  /** Deliver every prompt as written: no slash command runs, no `@path` is attached (a message's own `client_composed: true` does the same for it). */
  verbatimPrompts?: boolean
  /** The tokens the whole task may take, told to the model on each request of the main conversation (the task-budget mod). */
  taskBudget?: { total: number }
  /** How the CLI process gets `mcpServers`: in-process there is none, accepted with no effect. */
  mcpServersDelivery?: 'argv' | 'initialize'
  /** The Claude Code executable: in-process there is none, accepted with no effect. */
  pathToClaudeCodeExecutable?: string
  /**
   * The application's own workflow for plan mode: the full plan-mode reminder carries it between
   * what plan mode forbids and how the plan is handed in (ExitPlanMode), which stay.
   */
  planModeInstructions?: string
  /** An MCP tool (`mcp__server__tool`) that answers permission asks when no `canUseTool` is given. */
  permissionPromptToolName?: string
  /** `none`: nobody answers asks (they are denied at once, canUseTool is never called); `host` (default): canUseTool or the prompt tool. */
  permissionPrompts?: 'host' | 'none'
  /** How the CLI process gets `plugins`: in-process there is none, accepted with no effect. */
  pluginDelivery?: 'argv' | 'initialize'
  /** A `prompt_suggestion` message (a guess at the next prompt) after each turn's result, from the second answer on. */
  promptSuggestions?: boolean
  /**
   * Running subagents are summarised about every 30 s (a request over each one's conversation):
   * a few words on what it does, as the `summary` of a task_progress message. Off by default;
   * CLAUDE_CODE_DISABLE_AGENT_PROGRESS_SUMMARIES turns it off even when asked for.
   */
  agentProgressSummaries?: boolean
  /** With resumeSessionAt: the turn the truncation may drop. Not honoured: named once. */
  resumeDropsTurn?: string
  /** Sandboxing of commands. Accepted, NOT enforced: Bash runs unsandboxed; `enabled: true` is warned about once. */
  sandbox?: { enabled?: boolean; [setting: string]: unknown }
  /** Managed-policy settings from a parent process. Not honoured: named once. */
  managedSettings?: object
  /** Which settings files to read: `user`, `project`, `local` (default all; `[]` none). */
  settingSources?: ('user' | 'project' | 'local')[]
  /**
   * The skills the model is offered: `'all'` (every one found, as when absent) or their names (a
   * skill's name, its directory's, or a plugin skill's name after `plugin:`); the others are kept
   * out of the listing and refused by the Skill tool, while `/name` still runs them. Each one
   * enabled runs without an ask (`Skill` / `Skill(name)` join `allowedTools`).
   */
  skills?: string[] | 'all'
  /**
   * A debug log of every mod's and the runtime's lines, debug ones included (runtime/debug-log.ts):
   * true, or a category filter as `--debug` takes one (`hooks,mcp`, `!hooks`); in
   * `~/.claude/debug/<session id>.txt` unless `debugFile` names the file (which turns it on too).
   */
  debug?: boolean | string
  debugFile?: string
  /** Called with warnings and errors (mods' and the loader's) instead of writing them to process.stderr. */
  stderr?: (data: string) => void
  /** A title for a new session (`--resume <title>` finds it by it; init's `title`); a resumed session keeps its own. */
  title?: string
  /** A custom spawn of the Claude Code process: in-process there is none, accepted with no effect. */
  spawnClaudeCodeProcess?: AnyCallback
}

/** What an MCP server asks the user for (the Agent SDK's ElicitationRequest). */
export interface ElicitationRequest {
  serverName: string
  message: string
  /** `form`: fields to fill (`requestedSchema`); `url`: a page to open. */
  mode?: 'form' | 'url'
  url?: string
  elicitationId?: string
  requestedSchema?: Record<string, unknown>
  /** The server's `_meta['anthropic/permissionDisplay']`: a header, a short label and a subtitle. */
  title?: string
  displayName?: string
  description?: string
}

/** The answer (the MCP SDK's ElicitResult): `accept` with the form's `content`, `decline` or `cancel`. */
export interface ElicitationResult {
  action: 'accept' | 'decline' | 'cancel'
  content?: Record<string, string | number | boolean | string[]>
}

/** `requestId` names the request; an answer of null (one the Agent SDK sends another way) reads as `cancel`. */
export type OnElicitation = (request: ElicitationRequest, options: { signal: AbortSignal; requestId: string }) => Promise<ElicitationResult | null>
