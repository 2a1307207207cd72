import { z } from 'zod'
import type { ContentBlockParam } from '@anthropic-ai/sdk/resources/messages'
import type { SDKAssistantMessage, SDKResultMessage } from '../../../core/loop/messages.js'
import type { LinesChanged } from '../../../core/tools/tool.js'
import { onFirstUse } from '../../../core/on-first-use.js'

/**
 * One line of a session transcript. The fields follow Claude Code's transcripts, so hook scripts
 * that read `transcript_path` read ours: every message line carries `uuid` and `parentUuid` (the
 * lines form a tree; the conversation is the path from the last line back to the root), and a
 * `message` in the Messages API shape. An assistant line holds ONE content block; the blocks of
 * one API response share `message.id`. A tool result is one user line per `tool_result` block,
 * with the tool's structured output as `toolUseResult`. Context the runtime adds beside tool
 * results, and recovery nudges, are user lines marked `isMeta`.
 */
export interface EntryBase {
  uuid: string
  parentUuid: string | null
  sessionId: string
  timestamp: string
  cwd: string
  isSidechain: boolean
  userType: 'external'
  entrypoint: string
  version: string
  gitBranch?: string
  /** On the lines of a subagent's transcript. */
  agentId?: string
}

export interface UserEntry extends EntryBase {
  type: 'user'
  message: { role: 'user'; content: string | ContentBlockParam[] }
  isMeta?: true
  /** On the line right after a `compact_boundary`: the summary that opens the compacted conversation. */
  isCompactSummary?: true
  toolUseResult?: unknown
  /** On a prompt's line: the permission mode it was given under (a resumed session goes on in it). */
  permissionMode?: string
  /** On the compact-summary line: the todo list as it stood, since the TodoWrite calls that built it are compacted away. */
  todos?: unknown[]
  /** On the compact-summary line (a modloop addition): the files read so far, for the same reason. */
  readFiles?: CarriedRead[]
}

/** A file a session had read: its real path, and whether the model saw all of it. */
export interface CarriedRead { path: string; whole: boolean }

export interface AssistantEntry extends EntryBase {
  type: 'assistant'
  /** The API message, as the stream's assistant message carries it. */
  message: SDKAssistantMessage['message']
  /** The API's id for the request that produced this response, when the model reported one. */
  requestId?: string
  error?: string
  /** The line stands for an API failure, not a response (never part of the rebuilt history). */
  isApiErrorMessage?: boolean
  apiErrorStatus?: number | null
}

/** What a turn's result message leaves in the transcript: enough to carry its totals into a resumed session. */
export type TurnResult = Omit<SDKResultMessage, 'type' | 'permission_denials' | 'session_id' | 'uuid'>

export interface SystemEntry extends EntryBase {
  type: 'system'
  subtype: string
  content?: string
  level?: string
  /** On `turn_result` lines: the session's model when the turn ended. */
  model?: string
  /** On `turn_result` lines. */
  result?: TurnResult
  /** On `turn_result` lines (a modloop addition): the lines the session's edits had changed by then. */
  linesChanged?: LinesChanged
  [field: string]: unknown
}

export type MessageEntry = UserEntry | AssistantEntry | SystemEntry

/** A line as read back: message lines, or kinds this version does not write (kept, never interpreted). */
export type TranscriptEntry = MessageEntry | { type: string; uuid?: string; parentUuid?: string | null; [field: string]: unknown }

export const TURN_RESULT = 'turn_result'

/**
 * A line outside the conversation's chain naming the session (Claude Code writes the same for
 * `/rename`): the last one is the session's title. A settings hook's `sessionTitle` writes one.
 */
export type CustomTitleEntry = { type: 'custom-title'; customTitle: string; sessionId: string }

export function isCustomTitle(e: TranscriptEntry): e is CustomTitleEntry {
  return e.type === 'custom-title' && typeof e.customTitle === 'string'
}

// Reading checks only what rebuilding relies on; unknown fields pass through untouched. Built on
// first use: only a resume, a fork or a listing reads a transcript back.
export const entrySchema = onFirstUse(() => {
  const block = z.looseObject({ type: z.string() })
  const message = z.looseObject({
    role: z.enum(['user', 'assistant']),
    content: z.union([z.string(), z.array(block)]),
    id: z.string().optional(),
  })
  return z.looseObject({
    type: z.string().min(1),
    uuid: z.string().min(1).optional(),
    parentUuid: z.string().nullish(),
    timestamp: z.string().optional(),
    isSidechain: z.boolean().optional(),
    isMeta: z.boolean().optional(),
    subtype: z.string().optional(),
    message: z.unknown().optional(),
  }).superRefine((e, ctx) => {
    // Only conversation lines carry the API message a rebuild reads: a line of another kind may hold
    // a message of its own shape (Claude Code's request blobs hold system ones) and passes untouched.
    if ((e.type !== 'user' && e.type !== 'assistant') || e.message === undefined) return
    const r = message.safeParse(e.message)
    if (!r.success) for (const issue of r.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: ['message', ...issue.path] })
  })
})

export function isMessageEntry(e: TranscriptEntry): e is MessageEntry {
  return (e.type === 'user' || e.type === 'assistant' || e.type === 'system') && typeof e.uuid === 'string'
}

export function isUserEntry(e: TranscriptEntry): e is UserEntry {
  return e.type === 'user' && typeof e.uuid === 'string' && typeof e.message === 'object' && e.message !== null
}

export function isAssistantEntry(e: TranscriptEntry): e is AssistantEntry {
  return e.type === 'assistant' && typeof e.uuid === 'string' && typeof e.message === 'object' && e.message !== null
}

export function isTurnResult(e: TranscriptEntry): e is SystemEntry & { result: TurnResult } {
  return e.type === 'system' && e.subtype === TURN_RESULT && typeof e.result === 'object' && e.result !== null
}

/** A prompt line: a user line that is neither a tool result nor runtime context. */
export function isPrompt(e: TranscriptEntry): boolean {
  if (!isUserEntry(e) || e.isMeta === true) return false
  const c = e.message.content
  return typeof c === 'string' || !c.some((b) => b.type === 'tool_result')
}
