import type { MessageParam } from '@anthropic-ai/sdk/resources/messages'
import type { ModelUsage } from '../loop/messages.js'
import type { LinesChanged } from '../tools/tool.js'

type Env = Record<string, string | undefined>

/**
 * Where sessions are kept. Core asks it for the session a resume, continue or fork names and for
 * where a new one goes; a mod (transcripts) writes it. The entry point hands core the store (the
 * file store of JSONL transcripts by default): core knows no file format.
 */
export interface SessionStore {
  /** Where a session of this id is kept: session.start's `transcriptPath` (a file, or a URL of another store). */
  locationOf(cwd: string, sessionId: string, env?: Env): string
  /** Whether a session of this id is kept already. */
  exists(cwd: string, sessionId: string, env?: Env): Promise<boolean>
  /**
   * The session to go on from, rebuilt: `id`, or the newest of `cwd` when absent; up to the
   * message `at` when given. Refused (MODLOOP_ERR_SESSION_LOCKED) while another process holds it,
   * unless `fork` (a fork writes a new session). Not found: MODLOOP_ERR_SESSION_NOT_FOUND.
   */
  load(request: { id?: string; cwd: string; env?: Env; fork: boolean; at?: string }): Promise<StoredSession>
  /**
   * Takes the session for this process while it runs, so no other process writes it at the same
   * time; returns (or resolves to) the release. Throws MODLOOP_ERR_SESSION_LOCKED when another live
   * process holds it. A store on a server takes its lock there, so it may answer asynchronously.
   */
  hold(location: string, sessionId: string): (() => void) | Promise<() => void>
  /** The file the session's trace is appended to (what mods changed or decided, for `modloop why`), if the store keeps one. */
  traceOf?(location: string): string | undefined
}

export interface StoredSession {
  sessionId: string
  location: string
  /** The uuid of the last message of the chain gone on from. */
  leafUuid: string | null
  rebuilt: Rebuilt
  /** Skipped lines and repairs, for the caller's log. */
  warnings: string[]
}

/** A session's history and totals as the loop had them when it stopped. */
export interface Rebuilt {
  /** The history as the loop had it: what the next request sends. */
  messages: MessageParam[]
  /** tool_use blocks that had no tool_result (the process died while tools ran), now answered with an error. */
  repaired: number
  /** Tool results without their tool_use, and a missing opening prompt, mended after a damaged line was skipped. */
  mended?: number
  /** Prompts the session took (user lines that are neither tool results nor runtime context). */
  userTurns: number
  totalCostUsd: number
  modelUsage: Record<string, ModelUsage>
  model?: string
  lastActivityMs: number
  /** A call a deferral held back as the session stopped: left unanswered, to be raised again. */
  deferred?: { id: string; name: string; input: unknown }
  /** The permission mode of the last prompt that recorded one. */
  permissionMode?: string
  /** What the last compaction carried past its boundary: the todo list and the files read until then. */
  carried?: Carried
  /** The last response of the model: when it came and its context's tokens (SessionStart's resume fields). */
  lastResponse?: { atMs: number; contextTokens: number }
  /** The last compaction's `cumulative_dropped_tokens`: a resumed session counts on from it. */
  droppedTokens?: number
  /** The lines the session's edits had changed when it stopped: a resumed session counts on from them. */
  linesChanged?: LinesChanged
  /** What mods recorded beside the conversation since its last compaction: the last of each kind (ResumedFrom's `attachments`). */
  attachments?: Record<string, Record<string, unknown>>
}

export interface Carried { todos?: unknown[]; readFiles?: { path: string; whole: boolean }[] }
