/**
 * Payload (`e`) and result types of every catalog event. Field names follow the mod model of
 * spec/mods.md §3 so that a mod written for it reads the same here.
 */

import type { SDKMessage } from '../loop/messages.js'

export interface Usage {
  input_tokens: number
  output_tokens: number
  cache_read_input_tokens: number
  cache_creation_input_tokens: number
}

/** Why a session starts: new, a resumed one (same id, appended to), or a fork (a copy under a new id). */
export type SessionSource = 'startup' | 'resume' | 'fork'
/** The transcript a resumed or forked session was loaded from, and the last message taken from it. */
export interface ResumedFrom { sessionId: string; transcriptPath: string; leafUuid: string | null; lastActivityMs: number }
/** `transcriptPath` is where this session's transcript belongs (the transcripts mod writes it). */
export interface SessionStartInput {
  cwd: string
  surface: 'terminal' | null
  isInteractive: boolean
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
export interface SessionCompactInput {
  trigger: 'manual' | 'auto' | 'plugin'
  instructions?: string
  messages: readonly SessionMessage[]
  agentId?: string
}
export type SessionCompactResult =
  | { messages: SessionMessage[]; tokensBefore?: number; tokensAfter?: number }
  | { skip: string }

export type PromptOrigin = { kind: 'sdk' | 'composer' | 'auto-continuation' } | { kind: 'plugin'; name: string; asUser?: boolean }
export interface PromptSubmitInput { text: string; context?: string[]; origin: PromptOrigin; wait: boolean; turnId?: string }
export type PromptSubmitResult = { text: string; context?: string[]; origin?: PromptOrigin } | { drop: string }

export interface PromptMentionInput { mention: string; path: string; offset?: number; limit?: number; agentId?: string }
export type PromptMentionResult = { type: 'file' | 'already_read_file' | null; context?: string[] } | { deny: string }

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
export type CommandRunResult = { output?: string; prompt?: string } | { deny: string }

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
/** `isHidden` (a modloop addition) keeps the tool out of the request, e.g. for a bare-name deny rule. */
export interface ToolDescribeResult { description: string; isHidden?: boolean }

/** The tool's arguments are spread at the top level, beside the reserved fields. */
export interface ToolCallInput { tool: string; tool_use_id: string; agentId?: string; [arg: string]: unknown }
export type ToolCallResult =
  | { deny: string }
  | { result: unknown; isError?: false; text?: string; context?: string[]; isReadOnly?: boolean }
  | { result: unknown; isError: true; text?: string; context?: string[]; isReadOnly?: boolean }

export type Decision = 'allow' | 'ask' | 'deny'
export interface ToolCheckInput { tool: string; input: unknown; tool_use_id?: string; agentId?: string }
export interface ToolCheckResult { decision: Decision; reason?: string; rule?: string; hook?: string }

export interface AgentSpawnInput {
  tool_use_id: string
  prompt: string
  description: string
  subagentType: string
  model?: string
  parentModel: string
  parentAgentId?: string
  cwd?: string
}
export type AgentSpawnResult = { model: string; agentId?: string } | { deny: string }

/** A message entering the conversation record; `shown` is false for ones the caller's stream does not carry (the prompt). */
export interface SessionMessageInput { message: SDKMessage; shown: boolean; agentId?: string }
export interface SessionMessageResult { message: SDKMessage }
