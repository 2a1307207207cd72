/**
 * Payload (`e`) and result types of every catalog event. Field names follow the mod model of
 * spec/mods.md §3 so that a mod written for it reads the same here.
 */

import type { ResultSubtype, SDKMessage, TerminalReason } from '../loop/messages.js'
import type { ModelRequest } from '../model/types.js'
import type { ImageBlockParam } from '@anthropic-ai/sdk/resources/messages'
import type { ToolResultContent } from '../tools/tool.js'

/** `cache_creation`: how the cache writes split by time to live, when the API reports it. */
export interface Usage {
  input_tokens: number
  output_tokens: number
  cache_read_input_tokens: number
  cache_creation_input_tokens: number
  cache_creation?: CacheCreation
  /** Searches and fetches the API's server ran (its web tools); each search is billed on top of the tokens. */
  server_tool_use?: { web_search_requests: number; web_fetch_requests?: number }
  /** The part of `output_tokens` spent thinking, when the API reports it. */
  output_tokens_details?: { thinking_tokens: number }
  /** How the API served the request, as it reports it; in a sum, the latest response's. */
  service_tier?: string
  inference_geo?: string
  speed?: string
  iterations?: unknown[]
  fallback_credit?: unknown
}
export interface CacheCreation { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number }

/** Why a session starts: new, a resumed one (same id, appended to), a fork (a copy under a new id), or a fresh conversation after /clear. */
export type SessionSource = 'startup' | 'resume' | 'fork' | 'clear' | 'compact'
/**
 * The transcript a resumed or forked session was loaded from, and the last message taken from it.
 * `carried`: what its last compaction recorded of state the compacted history no longer shows
 * (the todo list, the files read); the history after that compaction still comes first.
 * `attachments`: what mods recorded beside the conversation since its last compaction (the last
 * line of each `attachment.type`), for the mod that wrote it to go on from.
 */
export interface ResumedFrom {
  sessionId: string
  transcriptPath: string
  leafUuid: string | null
  lastActivityMs: number
  carried?: { todos?: unknown[]; readFiles?: { path: string; whole: boolean }[] }
  /** The transcript's last response of the model: when it came, and the tokens of its context (input, cache reads and writes, output). */
  lastResponse?: { atMs: number; contextTokens: number }
  attachments?: Record<string, Record<string, unknown>>
}
/**
 * `transcriptPath` is where this session's transcript belongs (the transcripts mod writes it).
 * `canAsk`: an approver answers permission asks (the terminal, canUseTool), so a tool that asks
 * the user something can be offered. `waitsForInput`: the session takes more prompts once its
 * first is answered (the terminal, `query()` with streaming input); false for a one-prompt run
 * (`-p`, `query()` with a string prompt), which ends after it unless something holds it open
 * (a background task, `$.session.hold`).
 */
export interface SessionStartInput {
  cwd: string
  surface: 'terminal' | null
  isInteractive: boolean
  canAsk?: boolean
  waitsForInput: boolean
  sessionId: string
  source: SessionSource
  transcriptPath: string
  resumedFrom?: ResumedFrom
}
export interface SessionStartResult { cwd: string }

export type SessionEndReason = 'clear' | 'resume' | 'logout' | 'prompt_input_exit' | 'other'
export interface SessionEndInput { reason: SessionEndReason; sessionId: string }
export interface SessionEndResult { sessionId: string }

export interface SessionMessage { role: 'user' | 'assistant'; content: unknown }
/** `tokens`: the context's size as core measures it (the last reported count plus an estimate since). */
export interface SessionCompactInput {
  trigger: 'manual' | 'auto' | 'plugin'
  instructions?: string
  messages: readonly SessionMessage[]
  agentId?: string
  tokens?: number
}
/**
 * `isFailed` (a modloop addition): compaction was attempted and failed, as opposed to declined.
 * `summary`: the summary text alone, without the framing its first message wraps it in (what
 * PostCompact hooks read as compact_summary).
 */
export type SessionCompactResult =
  | { messages: SessionMessage[]; tokensBefore?: number; tokensAfter?: number; summary?: string }
  | { skip: string; isFailed?: true }

/**
 * `task-notification`: a background task ended and its report comes back as a turn of its own.
 * `bash`: a command the person ran themselves (the terminal's `!` mode); its input and output enter
 * as they are, without prompt.submit (no UserPromptSubmit, as in Claude Code), commands or mentions.
 */
export type PromptOrigin =
  | { kind: 'sdk' | 'composer' | 'auto-continuation' | 'bash' }
  | { kind: 'plugin'; name: string; asUser?: boolean }
  | { kind: 'task-notification'; taskId: string }
/** What a prompt carries besides its text (an image, a document), the kind only, never the bytes. */
export interface PromptAttachmentKind { type: 'image' | 'document'; mediaType?: string; filename?: string }
/** `attachments`: present when the prompt carries any. */
export interface PromptSubmitInput { text: string; attachments?: PromptAttachmentKind[]; context?: string[]; origin: PromptOrigin; wait: boolean; turnId?: string }
/** `drop` ends the turn before any request with that text as its result, an error unless `isError: false` (a refusal Claude Code reports as a success, a hook's). */
export type PromptSubmitResult = { text: string; context?: string[]; origin?: PromptOrigin } | { drop: string; isError?: boolean }

/** `from`: where the mention was written when the person did not type it, e.g. the command file and line (`…/review.md:6`). */
export interface PromptMentionInput { mention: string; path: string; offset?: number; limit?: number; agentId?: string; from?: string }
/** `images`: what the model is shown after the context, an @-mentioned picture as the picture itself. */
export type PromptMentionResult = { type: 'file' | 'already_read_file' | null; context?: string[]; images?: ImageBlockParam[] } | { deny: string }

export interface PromptAttachmentInput {
  type: string
  text: string
  origin: { kind: 'engine' } | { kind: 'hook' | 'plugin'; event: string }
  agentId?: string
}
export interface PromptAttachmentResult { text: string | null }

export interface PromptSectionInput { name: string; text: string | null }
export interface PromptSectionResult { text: string | null }

export interface PromptSection { id: string; text: string; scope: 'shared' | 'session' }
export interface PromptComposeInput { model: string; tools: readonly string[]; sections: readonly PromptSection[]; agentId?: string }
export interface PromptComposeResult { sections: PromptSection[] }

export interface CommandRunInput { command: string; args: string; origin: PromptOrigin }
/**
 * `unknown`: no mod knows the command (core's own answer beneath every handler). `isError: false`: a refusal Claude Code reports as a success (a hook's).
 * `images` go to the model after the prompt's text (an MCP prompt's pictures); `context`, with a
 * `prompt`, goes as runtime context after it (a reminder of what the command switched on).
 * `unrecorded: true`, with an `output`: the output is the turn's result and nothing more; neither
 * the command nor its output joins the history or the transcript (a side question's answer, /btw).
 */
export type CommandRunResult = { output?: string; prompt?: string; images?: ImageBlockParam[]; context?: string[]; unrecorded?: true } | { deny: string; unknown?: true; isError?: boolean }

/**
 * `requested` is the alias or id asked for (null: back to the default); `to` is the model id it
 * resolved to. The cache figures estimate what the switch costs: the new model starts cold.
 * `source` says who switched: a command (/model), the SDK (setModel), `auto` — the fallback model
 * taking over for the rest of a turn — or `resume`, a resumed session going on with another model.
 */
/** A value a config row takes; null puts the row back to its default. */
export type ConfigValue = boolean | string | number | string[] | null
/**
 * `key`: the row, as `$.config.list` names it (modloop keeps `model` and `effort`). `previous`:
 * its value now. `provider`: who keeps the row (`core`). `origin`: the mod whose `$.config.set` asked.
 */
export interface ConfigSetInput { key: string; value: ConfigValue; previous: ConfigValue; provider: string; origin: { kind: 'plugin'; name: string } }
export type ConfigSetResult = { value: ConfigValue } | { deny: string }

export interface ModelSwitchInput {
  from: string
  to: string
  requested: string | null
  source: 'command' | 'sdk' | 'auto' | 'resume'
  contextTokens: number
  promptCacheWarm: boolean
  cacheTtl: '5m' | '1h'
  estimatedCacheWriteUsd: number
  pricing: 'catalog' | 'default'
}
/** `context`: text for the model, delivered with the next request (PostModelSwitch's additionalContext). */
export type ModelSwitchResult = { model: string; context?: string[] } | { deny: string }

/**
 * What a model request is for: a round of the main loop (`turn`), a round of a subagent's loop
 * (`subagent`), a side request through `$.model.complete` (`complete`), or the main conversation
 * as the loop sends it with one more prompt, through `$.model.fork` (`fork`). `request.system` is
 * text blocks, one per composed system-prompt section; `sections` names them, index for index.
 */
export interface ModelRequestInput {
  purpose: 'turn' | 'subagent' | 'complete' | 'fork'
  request: ModelRequest
  sections: readonly { id: string; scope: 'shared' | 'session' }[]
  turnId?: string
  agentId?: string
}
export interface ModelRequestResult { request: ModelRequest }

export interface TurnStartInput { text: string; turnId: string }
export interface TurnStartResult { turnId: string }

export type StopReason =
  | 'end_turn' | 'max_tokens' | 'stop_sequence' | 'tool_use' | 'pause_turn' | 'refusal'
  | 'model_context_window_exceeded' | null

export interface TurnStepInput {
  turnId: string
  index: number
  model: string
  effort?: 'low' | 'medium' | 'high' | 'xhigh' | 'max'
  messageCount: number
  agentId?: string
}
/** How a compaction a `turn.request` answer asked for went: the figures, or why nothing was compacted. */
export type CompactOutcome = { tokensBefore: number; tokensAfter: number } | { skip: string; isFailed?: true }
/**
 * `messages`: the history the request would send; `tokens`: its size as core measures it (the
 * last reported count plus an estimate since). `compacted`: present when the event is raised again
 * after the compaction a handler asked for.
 */
export interface TurnRequestInput {
  turnId: string
  index: number
  model: string
  messages: readonly SessionMessage[]
  tokens: number
  compacted?: CompactOutcome
  agentId?: string
}
/**
 * `{}` sends the request. `messages`: the history to send from now on in place of the one given
 * (the same conversation with content cut, e.g. old tool results cleared; the transcript keeps
 * what was recorded). `compact`: compact the conversation first (trigger `auto`). `end`: the turn
 * ends before the request, as an error result with this terminal reason and text. After
 * `messages` or `compact` the event is raised again with the new history; each is honoured once
 * per request.
 */
export type TurnRequestResult =
  | { messages?: SessionMessage[] }
  | { compact: { instructions?: string } }
  | { end: { terminal: TerminalReason; text: string } }

/** `error`: the API's message; `messages` and `tokens` as in `turn.request`. */
export interface TurnOverflowInput {
  turnId: string
  index: number
  model: string
  error: string
  messages: readonly SessionMessage[]
  tokens: number
  agentId?: string
}
/** `compact`: compact the conversation and send the request again; `{}`: the turn ends as `prompt_too_long`. */
export interface TurnOverflowResult { compact?: { instructions?: string } }

/** What one model request streams, as the loop and every `turn.step` handler see it. */
export type TurnStepChunk =
  | { kind: 'text'; index: number; text: string }
  | { kind: 'thinking'; index: number; text: string; signature?: string }
  | { kind: 'tool'; index: number; id: string; name: string }
  | { kind: 'input'; index: number; json: string }
  | { kind: 'block_stop'; index: number }
  | { kind: 'stop'; stopReason: StopReason; usage: Usage }
  | { kind: 'engine'; ref: unknown }
export interface TurnStepResult {
  turnId: string
  index: number
  answer: string
  toolUses: { id: string; name: string; input: unknown }[]
  stopReason: StopReason
  usage: (Usage & { model: string }) | null
}

/** The model answered without tool calls and the turn would end; `stopHookActive` once a `continue` has already re-entered it. */
export interface TurnStopInput { turnId: string; answer: string; stopHookActive: boolean; agentId?: string }
/**
 * `continue` sends `reason` to the model as a new user message and runs on; `halt` ends the turn as
 * stop_hook_prevented, the answer still its result and `reason` shown as a warning.
 */
export type TurnStopResult = { decision: 'stop' } | { decision: 'continue'; reason: string } | { decision: 'halt'; reason: string; ending?: TurnEnding }

/**
 * How a mod ends a turn its own way (a modloop addition), on a tool result (`endTurn`) or a
 * `turn.stop` halt (`ending`): a success carrying structured output, or an error result.
 */
export type TurnEnding =
  | { structuredOutput: unknown }
  | { error: { subtype: Exclude<ResultSubtype, 'success'>; terminal: TerminalReason; message: string } }

export interface TurnCompleteInput {
  answer: string
  durationMs: number
  isAborted: boolean
  turnId: string
  reason: 'answer' | 'aborted' | 'refusal' | 'error'
  usage?: Usage
  agentId?: string
}
export interface TurnCompleteResult { text: string; usage?: Usage }

export interface ToolDescribeInput { tool: string; description: string; provider: string }
/**
 * `isHidden` (a modloop addition) keeps the tool out of the request, e.g. for a bare-name deny rule.
 * `isDeferred: true` sends it with `defer_loading` (behind tool search); left out, the answer from beneath stands.
 */
export interface ToolDescribeResult { description: string; isHidden?: boolean; isDeferred?: boolean }

/**
 * The tool's arguments are spread at the top level, beside the reserved fields. `verdict`: a
 * permission verdict a handler reached before the check (a PreToolUse hook's), passed down with
 * `next({ ...e, verdict })`; core hands it to `tool.check` in its payload.
 */
export interface ToolCallInput { tool: string; tool_use_id: string; agentId?: string; verdict?: ProposedVerdict; [arg: string]: unknown }

/** A verdict reached before the permission check: what decided it, and why. */
export interface ProposedVerdict { decision: Decision; reason?: string; hook?: string }
/**
 * `halt` (a modloop addition) ends the turn as hook_stopped once the whole batch has been answered.
 * `content` (a modloop addition): the blocks the model is sent in place of `text`, when the answer
 * holds images; a handler that gives another `text` keeps the images, after its text. A `deny`
 * may carry `context` too: what a hook that refused the call also said, sent beside the refusal.
 * `followUp` (a modloop addition): the tool's text that follows its result (ToolOutput.followUp).
 * `ranWith` (set by core): the input the tool ran with, when the permission answer beneath the
 * handler (a PermissionRequest hook's or canUseTool's updatedInput) replaced the one passed down.
 */
export type ToolCallResult =
  | { deny: string; halt?: string; context?: string[] }
  | { result: unknown; isError?: false; text?: string; content?: ToolResultContent[]; context?: string[]; followUp?: string; isReadOnly?: boolean; halt?: string; endTurn?: TurnEnding; ranWith?: Record<string, unknown> }
  | { result: unknown; isError: true; text?: string; content?: ToolResultContent[]; context?: string[]; followUp?: string; isReadOnly?: boolean; halt?: string; endTurn?: TurnEnding; ranWith?: Record<string, unknown> }

/** A model's tool call whose input failed its tool's schema: `message` is the error it reads; a handler may add to it. */
export interface ToolInvalidInput { tool: string; tool_use_id: string; input: unknown; message: string; agentId?: string }
export interface ToolInvalidResult { message: string }

/** One call of a batch as answered: `result` is the text the model reads. */
export interface ToolBatchCall { tool: string; tool_use_id: string; input: unknown; result: string; isError: boolean }
export interface ToolBatchInput { turnId: string; calls: readonly ToolBatchCall[]; agentId?: string }
/** `context` goes beside the batch's results; `halt` ends the turn as hook_stopped before the next request. */
export interface ToolBatchResult { context?: string[]; halt?: string }

/**
 * `defer` (a headless session only): the call does not run now; the turn ends with
 * `terminal_reason: 'tool_deferred'` and the call is raised again when the session is resumed.
 */
export type Decision = 'allow' | 'ask' | 'deny' | 'defer'
/** `canAsk`: an ask verdict would reach an approver (canUseTool); without one an ask is denied. */
/** `verdict`: what a tool.call handler decided before the check (ToolCallInput), for the handler that weighs it against the rules. */
export interface ToolCheckInput { tool: string; input: unknown; tool_use_id?: string; agentId?: string; canAsk?: boolean; verdict?: ProposedVerdict }
/** An ask may carry `suggestions` (what the approver could grant so as not to be asked again) and the `blockedPath` it is about. */
/** `updatedInput` (allow or ask): the whole input the call runs with instead (a permission hook's rewrite); it is validated again. */
/** `interrupt` (deny only): the turn ends once the batch is answered, as a user's interrupt ends it (a PermissionRequest hook's `interrupt`, as canUseTool's). */
export interface ToolCheckResult { decision: Decision; reason?: string; rule?: string; hook?: string; suggestions?: PermissionUpdate[]; blockedPath?: string; updatedInput?: Record<string, unknown>; interrupt?: true }

/**
 * An ask the permission check left standing, about to go on to the approver (canUseTool) — or,
 * with none (`canAsk` absent), to be refused. `reason`, `rule`, `hook`, `suggestions` and
 * `blockedPath` are tool.check's verdict as it stood after every tool.check handler.
 */
export interface PermissionAskInput {
  tool: string; input: unknown; tool_use_id: string; canAsk?: boolean; reason?: string; rule?: string; hook?: string
  suggestions?: PermissionUpdate[]; blockedPath?: string; agentId?: string
}
/**
 * `ask`: the ask goes on as it is (`reason` replaces what the approver is told); `allow` or `deny`
 * answers it for the approver (a PermissionRequest hook's). `updatedInput` (allow or ask) is the
 * whole input the call runs with, validated again; `interrupt` (deny only) ends the turn as an interrupt does.
 */
export interface PermissionAskResult { decision: 'allow' | 'ask' | 'deny'; reason?: string; rule?: string; hook?: string; updatedInput?: Record<string, unknown>; interrupt?: true }

/** A denied call: `reason` is what the model reads; `rule`/`hook` say what decided, as the verdict gave them. */
export interface PermissionDeniedInput { tool: string; input: unknown; tool_use_id: string; reason: string; rule?: string; hook?: string; agentId?: string }
/** `reason` replaces what the model reads (e.g. a note that it may retry); the denial itself stands. */
export interface PermissionDeniedResult { reason: string }

type PermissionUpdateDestination = 'userSettings' | 'projectSettings' | 'localSettings' | 'session' | 'cliArg'
/** A change to the permissions (spec loop-and-sdk §1.5): canUseTool's `suggestions` and `updatedPermissions`. */
export type PermissionUpdate =
  | { type: 'addRules' | 'replaceRules' | 'removeRules'; rules: { toolName: string; ruleContent?: string }[]; behavior: 'allow' | 'deny' | 'ask'; destination: PermissionUpdateDestination }
  | { type: 'setMode'; mode: 'default' | 'acceptEdits' | 'plan' | 'dontAsk' | 'bypassPermissions' | 'auto'; destination: PermissionUpdateDestination }
  | { type: 'addDirectories' | 'removeDirectories'; directories: string[]; destination: PermissionUpdateDestination }

/** `updates` are `PermissionUpdate`s (spec loop-and-sdk §1.5) as the approver gave them: the permission mod validates them. */
export interface PermissionUpdateInput { tool: string; tool_use_id?: string; updates: readonly unknown[]; agentId?: string }
export interface PermissionUpdateResult { updates: readonly unknown[] }

export interface AgentSpawnInput {
  tool_use_id: string
  prompt: string
  description: string
  subagentType: string
  model?: string
  parentModel: string
  parentAgentId?: string
  cwd?: string
  /** Text for the subagent's first message after its prompt, each a reminder (the memory files, say), as prompt.submit's context is for a prompt. */
  context?: readonly string[]
  /** Its agent type starts without the memory files (CLAUDE.md and the like): Explore and Plan, or an agent type's `omitClaudeMd`. */
  omitClaudeMd?: boolean
}
export type AgentSpawnResult = { model: string; agentId?: string } | { deny: string }

/**
 * A task: work that outlives one step of the loop, a subagent (`local_agent`) or a shell
 * (`local_bash`), in the foreground (a tool call waits for it) or the background. `outputFile`
 * is where its output goes while it runs; `mod` is the mod that runs it. `ambient`: it is part of
 * the tool call that started it, not work of its own (a `context: fork` skill's subagent): the
 * stream marks its start and end so, and shows no update or progress of it.
 */
export interface TaskStartInput {
  taskId: string
  taskType: string
  description: string
  isBackgrounded: boolean
  outputFile: string
  toolUseId?: string
  subagentType?: string
  prompt?: string
  spawnDepth?: number
  ambient?: boolean
  mod: string
}
export interface TaskStartResult { taskId: string }
/** What changed: the status (`killed` is a stopped task), the end time (ms since the epoch), a move to the background. */
export interface TaskPatch {
  status?: 'running' | 'completed' | 'failed' | 'killed'
  description?: string
  end_time?: number
  error?: string
  is_backgrounded?: boolean
}
export interface TaskUpdateInput { taskId: string; patch: TaskPatch }
export interface TaskUpdateResult { taskId: string }
export interface TaskUsage { total_tokens: number; tool_uses: number; duration_ms: number }
/** `notified`: its report goes back to the model as a turn of its own (a background task's). */
export interface TaskEndInput {
  taskId: string
  status: 'completed' | 'failed' | 'stopped'
  summary: string
  outputFile: string
  toolUseId?: string
  usage?: TaskUsage
  notified: boolean
}
export interface TaskEndResult { taskId: string }

/**
 * A worktree to be made for isolated work (a subagent's isolation "worktree", EnterWorktree):
 * `name` is its slug (`agent-<agent id>` for a subagent's), `cwd` the directory it was asked for from.
 */
export interface WorktreeCreateInput { name: string; cwd: string }
/** Where the worktree is, or why it was not made. */
export type WorktreeCreateResult = { path: string } | { deny: string }
/** A worktree a worktree.create handler made (not git), to be removed: removing it is the handlers' job. */
export interface WorktreeRemoveInput { path: string }
export interface WorktreeRemoveResult { path: string }

/** A message entering the conversation record; `shown` is false for ones the caller's stream does not carry (the prompt). */
export interface SessionMessageInput { message: SDKMessage; shown: boolean; agentId?: string }
export interface SessionMessageResult { message: SDKMessage }

/** One assistant text as shown: headless, each block is one batch (`index` 0, `final` true, `delta` its whole text). */
export interface MessageDisplayInput { turnId: string; messageId: string; index: number; final: boolean; delta: string; agentId?: string }
/** `text` is shown instead of the delta; history and transcript keep the original. */
export interface MessageDisplayResult { text: string }

