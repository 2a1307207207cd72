import type { MessageParam } from '@anthropic-ai/sdk/resources/messages'
import { z } from 'zod'
import { describeError, ModloopError } from '../errors.js'
import { onFirstUse } from '../on-first-use.js'
import type { SessionCompactInput, SessionCompactResult } from '../events/types.js'
import { uuid, zeroUsage, type SDKMessage } from './messages.js'
import type { Session } from './session.js'
import { writerOf } from './signed-by.js'

/**
 * Core's side of compaction: when to compact is a mod's answer (`turn.request`, `turn.overflow`,
 * `$.session.compact`); core raises `session.compact`, checks the history handed back, installs
 * it, and shows and records the boundary. One queue per session, on the session.
 */
export class CompactionQueue {
  /** Messages queued for the caller's stream; a boundary carries the history to record after it. */
  readonly items: { message: SDKMessage; history?: MessageParam[] }[] = []
  /** Who waits for queued messages while a command runs (see `flushWhile`). */
  waiting: (() => void) | undefined
  /** A compaction is running (no second one starts meanwhile). */
  running = false
  /** Tokens the session's compactions took out, resumes included: the boundary's `cumulative_dropped_tokens`. */
  dropped = 0
}

// Built on first use: only a compaction's answer is checked against it.
const messageSchema = onFirstUse(() => z.object({
  role: z.enum(['user', 'assistant']),
  content: z.union([z.string(), z.array(z.looseObject({ type: z.string() }))]),
}))
type Checked = z.infer<ReturnType<typeof messageSchema>>

function queue(session: Session, message: { type: 'system'; subtype: string; [field: string]: unknown }, history?: MessageParam[]): void {
  const q = session.compactions
  q.items.push({ message: session.stamp({ ...message, parent_tool_use_id: session.agent?.parentToolUseId ?? null }) as SDKMessage, ...(history ? { history } : {}) })
  q.waiting?.()
}

/**
 * Why a history a mod handed back cannot stand as the conversation, or undefined when it can.
 * Messages of the conversation as it is (`known`) were checked when they entered it: only the
 * shape of the others is read again, so a history cut in a few places costs a few checks.
 */
export function invalidHistory(messages: unknown, known: ReadonlySet<unknown> = new Set()): string | undefined {
  if (!Array.isArray(messages) || messages.length === 0) return 'the answer\'s messages must be a non-empty array'
  for (const [i, m] of messages.entries()) {
    if (known.has(m)) continue
    const parsed = messageSchema().safeParse(m)
    if (!parsed.success) return `the answer's messages are malformed at ${[i, ...parsed.error.issues[0]!.path].join('.')}: ${parsed.error.issues[0]!.message}`
  }
  const list = messages as Checked[]
  if (list[0]!.role !== 'user') return 'the answer\'s conversation must open with a user message'
  for (let i = 0; i < list.length; i++) {
    const m = list[i]!
    if (m.role !== 'assistant' || typeof m.content === 'string') continue
    let answered: Set<unknown> | undefined
    for (const b of m.content) {
      if (b.type !== 'tool_use') continue
      answered ??= resultIds(list[i + 1])
      if (!answered.has(b.id)) return `the answer leaves tool_use ${String(b.id)} without its tool_result in the next message`
    }
  }
  return undefined
}

function resultIds(m: Checked | undefined): Set<unknown> {
  const ids = new Set<unknown>()
  if (m && typeof m.content !== 'string') for (const b of m.content) if (b.type === 'tool_result') ids.add(b.tool_use_id)
  return ids
}

/**
 * Raises `session.compact` and, on a `{messages}` answer, installs them as the conversation the
 * next request sends. What is stored is untouched: the transcript gets a `compact_boundary` and
 * the new history after it (so a resume starts from there), everything before stays. Beneath
 * every handler, nothing compacts: the answer is a skip.
 */
export async function compactConversation(session: Session, trigger: SessionCompactInput['trigger'], instructions?: string): Promise<SessionCompactResult> {
  const q = session.compactions
  if (q.running) return { skip: 'a compaction is already running' }
  q.running = true
  try {
    const started = performance.now()
    const tokens = session.meter.tokens()
    queue(session, { type: 'system', subtype: 'status', status: 'compacting' })
    let r: SessionCompactResult
    try {
      r = await session.host.bus.emit('session.compact', {
        trigger, ...(instructions ? { instructions } : {}), messages: session.messages as SessionCompactInput['messages'], tokens,
        ...(session.agent ? { agentId: session.agent.agentId } : {}),
      }, () => ({ skip: 'no mod compacts the conversation' }))
    } catch (err) {
      r = { skip: describeError(err), isFailed: true }
    }
    const invalid = 'skip' in r ? undefined : invalidHistory(r.messages, new Set(session.messages))
    if (invalid) r = { skip: invalid, isFailed: true }
    if ('skip' in r) {
      queue(session, { type: 'system', subtype: 'status', status: null, compact_result: 'failed', compact_error: r.skip })
      return r
    }
    const history = r.messages as MessageParam[]
    session.messages.splice(0, session.messages.length, ...history)
    session.meter.reset()
    const after = r.tokensAfter ?? session.meter.tokens()
    const before = r.tokensBefore ?? tokens
    q.dropped += Math.max(0, before - after)
    queue(session, {
      type: 'system', subtype: 'compact_boundary',
      compact_metadata: {
        trigger: trigger === 'auto' ? 'auto' : 'manual', pre_tokens: before, post_tokens: after, cumulative_dropped_tokens: q.dropped,
        duration_ms: Math.round(performance.now() - started),
      },
    }, history)
    queue(session, { type: 'system', subtype: 'status', status: null, compact_result: 'success' })
    return { messages: r.messages, tokensBefore: before, tokensAfter: after }
  } finally {
    q.running = false
  }
}

/**
 * Yields what compactions queued. After a boundary, the new history is recorded (not shown):
 * the transcript then holds boundary and history in order, which is what a resume rebuilds.
 */
export async function* flushCompaction(session: Session): AsyncGenerator<SDKMessage, void, undefined> {
  const { items } = session.compactions
  if (items.length === 0) return
  for (const p of items.splice(0, items.length)) {
    yield p.message
    if (p.history) await recordHistory(session, p.history)
  }
}

/**
 * Waits for `work` (a slash command) and yields what compactions queue meanwhile, as they queue:
 * a `/compact` shows its `compacting` status while the summary is written, not after. `opening`
 * is yielded first, once: when the first of those arrives, else when the work is done. Notices
 * the command posted meanwhile (the outbox past `outboxMark`, its length as the command started:
 * `/plan`'s mode status) follow the opening, as they are the command's doing, not the turn's before.
 */
export async function* flushWhile<T>(session: Session, work: Promise<T>, opening?: () => SDKMessage, outboxMark?: number): AsyncGenerator<SDKMessage, T, undefined> {
  const q = session.compactions
  let done = false
  const settled = work.then(() => { done = true }, () => { done = true })
  let opened = false
  for (;;) {
    if (!done && q.items.length === 0) {
      await new Promise<void>((resolve) => {
        q.waiting = resolve
        void settled.then(resolve)
      })
      q.waiting = undefined
    }
    if (!opened) {
      opened = true
      if (opening) {
        const later = outboxMark === undefined ? [] : session.takePostedSince(outboxMark)
        yield opening()
        yield* later
      }
    }
    yield* flushCompaction(session)
    // The work may have ended while a flushed message was being read: what it queued since goes out too.
    if (done && q.items.length === 0) return work
  }
}

/**
 * A compaction (trigger `auto`: the session's own, as a mod asked for it before a request), with
 * its `compacting` status yielded while the summary is written (spec §3.9 step 1), not after:
 * compactConversation queues it before its first await.
 */
export async function* compactShowingStatus(session: Session, instructions?: string): AsyncGenerator<SDKMessage, SessionCompactResult, undefined> {
  const running = compactConversation(session, 'auto', instructions)
  // Awaited below; this only keeps a failure while the status is being read from counting as unhandled.
  running.catch(() => undefined)
  yield* flushCompaction(session)
  const r = await running
  yield* flushCompaction(session)
  return r
}

async function recordHistory(session: Session, history: readonly MessageParam[]): Promise<void> {
  const { bus } = session.host
  if (!bus.has('session.message')) return
  const parent = session.agent?.parentToolUseId ?? null
  const agent = session.agent ? { agentId: session.agent.agentId } : {}
  for (const [i, m] of history.entries()) {
    // The first message (a user message, as the answer was checked) is the summary the new conversation opens with.
    const message = m.role === 'user'
      ? session.stamp({ type: 'user' as const, message: { role: 'user' as const, content: m.content }, parent_tool_use_id: parent, isSynthetic: true, ...(i === 0 ? { isCompactSummary: true as const } : {}) })
      : session.stamp({
        type: 'assistant' as const, parent_tool_use_id: parent,
        message: { id: `msg_${uuid()}`, type: 'message' as const, role: 'assistant' as const, model: writerOf(m) ?? session.model, content: m.content as never, stop_reason: null, stop_sequence: null, usage: zeroUsage() },
      })
    await bus.emit('session.message', { message, shown: false, ...agent })
  }
}

/**
 * `$.session.compact({ instructions?, trigger? })`: trigger `plugin` as the mod model has it, or
 * `manual` for a mod serving a person's `/compact` (a modloop addition). Refused while a tool
 * batch runs: its results must follow the tool calls they answer.
 */
export function compactOnRequest(session: Session, mod: string, args?: { instructions?: string; trigger?: 'manual' | 'plugin' }): Promise<SessionCompactResult> {
  const last = session.messages.at(-1)
  if (last?.role === 'assistant' && typeof last.content !== 'string' && last.content.some((b) => b.type === 'tool_use')) {
    return Promise.reject(new ModloopError('MODLOOP_ERR_USAGE', `${mod}: $.session.compact cannot run while tool calls are being answered`, { mod }))
  }
  if (session.messages.length === 0) return Promise.resolve({ skip: 'nothing to compact: the conversation is empty' })
  return compactConversation(session, args?.trigger === 'manual' ? 'manual' : 'plugin', args?.instructions)
}
