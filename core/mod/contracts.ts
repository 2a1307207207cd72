import type { ContentBlock } from '@anthropic-ai/sdk/resources/messages'
import type { z } from 'zod'
import type { ServerToolDefinition } from '../model/types.js'
import type { TaskEndInput, TaskStartInput, TaskUsage, Usage } from '../events/types.js'
import type { SDKMessage, SDKResultMessage } from '../loop/messages.js'
import type { EffortLevel } from '../model/capabilities.js'
import type { CoercedInput, InputPlace, ToolContext, ToolOutput, ToolTraits } from '../tools/tool.js'

// What the `$` methods served by the runtime (runtime/providers.ts) take and give: declared here,
// with the `$` type, so mods and the type need not import the runtime that serves them.

/** A block of `$.model.complete`'s prompt or system; `cache: true` puts a cache breakpoint at its end. */
/** What a mod attaches to `$.prompt.submit`: the bytes as base64, as `$.fs.read(path, { as: 'bytes' })` gives them. */
export interface PromptAttachment {
  type: 'image' | 'document'
  mediaType: string
  base64: string
  filename?: string
}

export interface CompleteBlock { text: string; cache?: boolean }

export interface CompleteRequest {
  /** An alias (`haiku`, `sonnet`, `opus`) or a full id; default: the small fast model. */
  model?: string
  /** A text, or blocks: at most 4 blocks of `prompt` and `system` together marked `cache` (the API's limit). */
  prompt: string | CompleteBlock[]
  system?: string | CompleteBlock[]
  maxTokens?: number
  /** How hard the model works (lowered to what the model takes); default: the API's. */
  effort?: EffortLevel
  /** Gives up after this long (1 to 2,147,483,647 ms): the answer is `aborted`, as for the signal. */
  timeoutMs?: number
  /** Tools the API runs itself (its web search): their calls and results come back in `content`. */
  serverTools?: ServerToolDefinition[]
}

export type CompleteResult =
  | {
    isAnswered: true; text: string; usage: Usage
    /** The response's blocks, server tool calls and results among them. */
    content?: ContentBlock[]
  }
  | {
    isAnswered: false; reason: 'api-error' | 'empty-reply' | 'aborted'; status?: number | null; error?: string
    /** The API's own words for an api-error. */
    message?: string
    usage: Usage; content?: ContentBlock[]
  }

/** `$.model.fork`: one more prompt after the main conversation. `maxTokens` (a modloop addition): default, the loop's own. */
export interface ForkRequest {
  prompt: string
  maxTokens?: number
}

/** As `complete`'s, and `nothing-to-fork` when the main conversation is empty (before the first prompt, after /clear). */
export type ForkResult = CompleteResult | { isAnswered: false; reason: 'nothing-to-fork'; usage: Usage }

export interface SpawnRequest {
  prompt: string
  description: string
  subagentType?: string
  model?: string
  /** Only these tools (names); all of the parent's when absent. */
  tools?: readonly string[]
  disallowedTools?: readonly string[]
  systemPrompt?: string
  maxTurns?: number
  parentToolUseId: string
  parentAgentId?: string
  signal?: AbortSignal
  /** The effort its requests are sent with; the session's when absent. */
  effort?: EffortLevel
  /** Where its tools work (an isolated worktree); the session's directory when absent. */
  cwd?: string
  /** What its messages on the stream give as task_description; `description` when absent. */
  taskDescription?: string
  /** The id to give it (its task's); one is made when absent. */
  agentId?: string
  /** It starts without the memory files (the agent type says so). */
  omitClaudeMd?: boolean
  /** It starts in the background: it gets only the tools a background subagent may have. */
  background?: boolean
  /** Whether this message of its own goes on the root's stream; every one when absent. */
  shown?: (message: SDKMessage) => boolean
  /**
   * Its run starts once this settles: the caller announces its task first, so the stream shows the
   * task's start before anything of the subagent's.
   */
  ready?: Promise<void>
  /** Its prompt goes on the root's stream as its first message, as Claude Code shows a foreground subagent's. */
  showPrompt?: boolean
}

export interface SubagentResult {
  agentId: string
  text: string
  isError: boolean
  subtype: SDKResultMessage['subtype']
  terminalReason: SDKResultMessage['terminal_reason']
  numTurns: number
  /** Its tool calls (server tools such as web search aside). */
  toolUses: number
  /** The tools it called, each named once, in the order it first called them. */
  toolNames: string[]
  durationMs: number
  usage: SDKResultMessage['usage']
}

/**
 * A started subagent (modloop additions beside `done`): `tell` gives it a message that joins its
 * next tool round, `untold` takes back those it ended before reading, and `resume` runs it again,
 * once it ended, with its whole history and a new message, under a signal of its own.
 */
export interface SpawnedAgent {
  model: string
  agentId: string
  /** How deep it is nested: 1 under the main conversation, 2 under one of its subagents, … */
  depth: number
  done: Promise<SubagentResult>
  /** Joins its next tool round. `event`: a watch's report, dropped (not kept for `untold`) if the run ends unread. */
  tell(text: string, opts?: { event?: boolean }): void
  /** The messages its run ended without reading (events left out), taken from its inbox. */
  untold(): string[]
  resume(prompt: string, signal?: AbortSignal): Promise<SubagentResult>
  /**
   * One completion over its conversation as its next round would send it (its model, system
   * prompt, tools and messages) plus `prompt`, as `$.model.fork` over the main one: its prompt
   * cache serves most of it. `nothing-to-fork` once it is released.
   */
  fork(req: ForkRequest, options?: { signal?: AbortSignal }): Promise<ForkResult>
  /** Lets an ended one go for good: its session (its history) and its id in the root's list; it cannot be resumed after. */
  release(): void
}

export type SpawnAnswer = { deny: string } | SpawnedAgent

/** What `$.tool.register` takes: the mod-model shape, plus an implementation for tools that carry their own. */
export interface ToolRegistration {
  name: string
  description: string
  /** A zod schema for the input (converted to JSON Schema with zod's own converter). */
  input?: z.ZodType
  /**
   * Or a JSON Schema, for tools described elsewhere (`jsonSchema`, the Tool contract's name, is
   * taken too). Given beside `input`, it is what the model is shown (a conversion made ahead of
   * time), and `input` still validates the calls.
   */
  inputSchema?: Record<string, unknown>
  jsonSchema?: Record<string, unknown>
  isReadOnly?: boolean | ((input: any) => boolean)
  /** A tool with its own implementation keeps its name; one without is `mcp__<mod>__<name>`, served by a tool.call handler. */
  call?: (input: any, ctx: ToolContext) => Promise<ToolOutput> | ToolOutput
  /** Completes a valid input before hooks, permissions and `call` see it (the Tool contract's `resolveInput`). */
  resolveInput?: (input: any, at: InputPlace) => any
  /** Reads a model's input sent in a like tool's shape as this tool's (the Tool contract's `coerceInput`). */
  coerceInput?: (input: Record<string, unknown>) => CoercedInput | undefined
  /** Other names the model may call it by (e.g. the legacy `Task` for `Agent`). */
  aliases?: string[]
  traits?: ToolTraits
}

/** What a mod hands `$.task.start`: the task as events and messages show it, and how to control it. */
export interface TaskStartSpec extends Omit<TaskStartInput, 'mod'> {
  /** Keeps the session's stream open until the task ends, once it runs in the background (a subagent's does, a shell's not). */
  holdsSession?: boolean
  /** Stops it; the mod then ends it through `$.task.end` as `stopped`. */
  stop(): Promise<void> | void
  /** Moves a foreground task to the background (the tool call waiting on it returns); false when it cannot move. */
  toBackground?(): boolean
}

/** What a mod hands `$.task.end`. `notification`: the text of the turn that hands a background task's report back. */
export interface TaskEndSpec {
  taskId: string
  status: TaskEndInput['status']
  summary: string
  /** The summary is the work's own report (a background subagent's answer): the stream says so. */
  summaryIsReport?: boolean
  error?: string
  usage?: TaskUsage
  notification?: string
}

/** How far a running task has got (`$.task.progress`): the stream's task_progress. */
export interface TaskProgressSpec {
  taskId: string
  /** What it is doing now, in a few words (`Reading src/a.ts`). */
  description: string
  /** The tool it called last. */
  lastToolName?: string
  usage: TaskUsage
  /** A one-line status for the task's row: a subagent's progress summary (agentProgressSummaries). */
  summary?: string
}

/** A running task as `$.task.list()` and `Query` report it. */
export interface LiveTaskInfo {
  id: string
  type: string
  status: 'running'
  description: string
  background: boolean
  outputFile: string
  toolUseId?: string
  /** A subagent's agent type. */
  subagentType?: string
  mod: string
}
