import type { ContentBlockParam, MessageParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages'
import type { Carried, Rebuilt } from '../../../core/session/store.js'
import type { LinesChanged } from '../../../core/tools/tool.js'
import { historyBlocks, withoutTrailingThinking } from '../../../core/loop/messages.js'
import { noteWriter } from '../../../core/loop/signed-by.js'
import { isTurnResult, type CarriedRead, type MessageEntry } from './entry.js'

export const UNANSWERED = 'Not run to completion: the session stopped (the process ended) before this tool call finished. Its effects, if any, are unknown; check before relying on them.'

/**
 * Turns a transcript chain back into the loop's history (compare with what core/loop/turn.ts
 * pushes): consecutive assistant lines of one response (same `message.id`) become one assistant
 * message; tool-result lines, and the `isMeta` context lines beside them, join the user message
 * they follow; any other user line (a prompt, a nudge after a response) starts a new message.
 * Then every tool_use left without its tool_result gets an error one, so the next request is
 * valid. Totals and the model come from the last turn result on the chain.
 */
export function rebuildHistory(chain: readonly MessageEntry[]): Rebuilt {
  const messages: MessageParam[] = []
  let responseId: string | undefined
  let userTurns = 0
  let totals: MessageEntry | undefined
  let permissionMode: string | undefined
  let carried: Carried | undefined
  let lastActivityMs = 0
  let droppedTokens: number | undefined
  let lastResponse: { atMs: number; contextTokens: number } | undefined
  // The history before the last boundary, until the summary after it shows the compaction was recorded whole.
  let beforeBoundary: MessageParam[] | undefined
  const settleBoundary = (e: MessageEntry) => {
    if (!beforeBoundary) return
    if (e.type !== 'user' || e.isCompactSummary !== true) messages.unshift(...beforeBoundary)
    beforeBoundary = undefined
  }
  for (const e of chain) {
    const at = Date.parse(e.timestamp)
    if (at > lastActivityMs) lastActivityMs = at
    if (e.type === 'user' || e.type === 'assistant') settleBoundary(e)
    // An API failure's message stands for no response: nothing of it was, or is, sent to the model.
    if (e.type === 'assistant' && e.isApiErrorMessage === true) continue
    if (e.type === 'assistant') {
      lastResponse = responseOf(e, at) ?? lastResponse
      const last = messages.at(-1)
      const blocks = historyBlocks(e.message.content as ContentBlockParam[])
      if (last?.role === 'assistant' && responseId !== undefined && responseId === e.message.id) (last.content as ContentBlockParam[]).push(...blocks)
      else if (blocks.length > 0) {
        const message: MessageParam = { role: 'assistant', content: blocks }
        if (typeof e.message.model === 'string') noteWriter(message, e.message.model)
        messages.push(message)
      }
      responseId = e.message.id
    } else if (e.type === 'user') {
      const content = asBlocks(e.message.content)
      const last = messages.at(-1)
      const joins = last?.role === 'user' && (e.isMeta === true || content.some((b) => b.type === 'tool_result'))
      if (joins) (last.content as ContentBlockParam[]).push(...content)
      else {
        messages.push({ role: 'user', content })
        if (e.isMeta !== true && !content.some((b) => b.type === 'tool_result')) userTurns++
        if (typeof e.permissionMode === 'string') permissionMode = e.permissionMode
      }
      if (e.isCompactSummary === true) carried = carriedBy(e)
      responseId = undefined
    } else if (isTurnResult(e)) {
      totals = e
    } else if (e.type === 'system' && e.subtype === 'compact_boundary') {
      // A compaction replaced the history: the lines after the boundary are what was sent from then
      // on. They open with its summary; a boundary without one (the process died before the summary
      // line was written) replaced nothing, and the history before it stands.
      if (beforeBoundary) messages.unshift(...beforeBoundary)
      beforeBoundary = messages.splice(0)
      responseId = undefined
      const dropped = (e.compact_metadata as { cumulative_dropped_tokens?: unknown } | undefined)?.cumulative_dropped_tokens
      if (typeof dropped === 'number') droppedTokens = dropped
    }
  }
  if (beforeBoundary) messages.unshift(...beforeBoundary)
  dropTrailingThinking(messages)
  const result = totals && isTurnResult(totals) ? totals : undefined
  const deferred = pendingDeferral(messages, result?.result.deferred_tool_use)
  const repaired = answerDangling(messages, deferred?.id)
  const mended = mendGaps(messages)
  return {
    messages,
    repaired,
    ...(mended > 0 ? { mended } : {}),
    userTurns,
    totalCostUsd: result?.result.total_cost_usd ?? 0,
    modelUsage: structuredClone(result?.result.modelUsage ?? {}),
    ...(result && isLinesChanged(result.linesChanged) ? { linesChanged: { added: result.linesChanged.added, removed: result.linesChanged.removed } } : {}),
    model: typeof result?.model === 'string' ? result.model : undefined,
    lastActivityMs,
    ...(deferred ? { deferred } : {}),
    ...(permissionMode ? { permissionMode } : {}),
    ...(carried ? { carried } : {}),
    ...(droppedTokens !== undefined ? { droppedTokens } : {}),
    ...(lastResponse ? { lastResponse } : {}),
  }
}

const isLinesChanged = (v: unknown): v is LinesChanged =>
  typeof v === 'object' && v !== null && typeof (v as LinesChanged).added === 'number' && typeof (v as LinesChanged).removed === 'number'

/** The summary line's record of the state its compaction took out of the conversation. */
function carriedBy(e: Extract<MessageEntry, { type: 'user' }>): Carried | undefined {
  const todos = Array.isArray(e.todos) ? e.todos : undefined
  const readFiles = Array.isArray(e.readFiles)
    ? e.readFiles.filter((r): r is CarriedRead => typeof r?.path === 'string' && typeof r.whole === 'boolean')
    : undefined
  return todos || readFiles ? { ...(todos ? { todos } : {}), ...(readFiles ? { readFiles } : {}) } : undefined
}

/** The last turn ended on a deferral, and its call is still the unanswered end of the history. */
function pendingDeferral(messages: readonly MessageParam[], held: { id: string; name: string; input: unknown } | undefined): Rebuilt['deferred'] {
  const last = messages.at(-1)
  if (!held || last?.role !== 'assistant' || typeof last.content === 'string') return undefined
  return last.content.some((b) => b.type === 'tool_use' && b.id === held.id) ? { id: held.id, name: held.name, input: held.input } : undefined
}

/** As the loop keeps a response (round.ts): the thinking a cut response ended on is not sent back; a response of nothing else goes. */
function dropTrailingThinking(messages: MessageParam[]): void {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!
    if (m.role !== 'assistant' || typeof m.content === 'string') continue
    const kept = withoutTrailingThinking(m.content)
    if (kept.length === m.content.length) continue
    if (kept.length > 0) m.content = kept
    else messages.splice(i, 1)
  }
}

export const LOST_LINES = '[Part of this conversation could not be read back from its transcript (a damaged line was skipped).]'

/**
 * A chain that stepped over a damaged line can miss the prompt it opens with, or the response a
 * tool result answers: the API refuses both (the first message must be the user's; every
 * tool_result must answer a tool_use of the message before). Such results are dropped, and a note
 * stands where a user message is left with nothing, so the conversation stays sendable.
 */
function mendGaps(messages: MessageParam[]): number {
  let mended = 0
  if (messages[0]?.role === 'assistant') {
    messages.unshift({ role: 'user', content: [{ type: 'text', text: LOST_LINES }] })
    mended++
  }
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!
    if (m.role !== 'user' || typeof m.content === 'string') continue
    const before = messages[i - 1]
    const asked = new Set(before?.role === 'assistant' && typeof before.content !== 'string' ? before.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : [])) : [])
    const kept = m.content.filter((b) => b.type !== 'tool_result' || asked.has(b.tool_use_id))
    if (kept.length === m.content.length) continue
    mended += m.content.length - kept.length
    m.content = kept.length > 0 ? kept : [{ type: 'text', text: LOST_LINES }]
  }
  return mended
}

const asBlocks = (content: string | ContentBlockParam[]): ContentBlockParam[] =>
  typeof content === 'string' ? [{ type: 'text', text: content }] : [...content]

/**
 * The loop never sends a tool_use without its tool_result in the next message. A transcript cut
 * by a crash can hold one: its answer joins the tool results that did arrive, or, when none did,
 * comes as its own user message right after the response (before any later prompt).
 */
function answerDangling(messages: MessageParam[], pending?: string): number {
  let repaired = 0
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!
    if (m.role !== 'assistant' || typeof m.content === 'string') continue
    const ids = m.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : []))
    if (ids.length === 0) continue
    const next = messages[i + 1]
    const nextBlocks = next?.role === 'user' && typeof next.content !== 'string' ? next.content : undefined
    const answered = new Set(nextBlocks?.flatMap((b) => (b.type === 'tool_result' ? [b.tool_use_id] : [])) ?? [])
    const missing: ToolResultBlockParam[] = ids.filter((id) => !answered.has(id) && id !== pending).map((id) => ({ type: 'tool_result', tool_use_id: id, content: UNANSWERED, is_error: true }))
    if (missing.length === 0) continue
    repaired += missing.length
    if (nextBlocks && answered.size > 0) {
      // tool_result blocks lead the message; the missing ones go right after those that arrived.
      const at = nextBlocks.findIndex((b) => b.type !== 'tool_result')
      nextBlocks.splice(at === -1 ? nextBlocks.length : at, 0, ...missing)
    } else {
      messages.splice(i + 1, 0, { role: 'user', content: missing })
      i++
    }
  }
  return repaired
}

/** A response's time and the tokens its request and answer held, when its line carries usage. */
function responseOf(e: MessageEntry, atMs: number): { atMs: number; contextTokens: number } | undefined {
  const u = (e.message as { usage?: Record<string, unknown> }).usage
  if (!u || Number.isNaN(atMs)) return undefined
  const n = (k: string) => (typeof u[k] === 'number' ? (u[k] as number) : 0)
  return { atMs, contextTokens: n('input_tokens') + n('cache_read_input_tokens') + n('cache_creation_input_tokens') + n('output_tokens') }
}
