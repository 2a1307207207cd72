import type { MessageParam } from '@anthropic-ai/sdk/resources/messages'
import { z } from 'zod'
import { describeError, ModloopError } from '../errors.js'
import type { SessionCompactInput, SessionCompactResult } from '../events/types.js'
import type { ModelApiError } from '../model/types.js'
import { contextTokens, meterOf, microcompact, resetAfterCompaction } from './compact-meter.js'
import { uuid, zeroUsage, type SDKMessage } from './messages.js'
import type { Session } from './session.js'
import type { Ending } from './ending.js'

/**
 * When compaction runs is a mod's decision, which it publishes as plain data in `$.state`
 * under this ref (the mod named `compaction` owns it): `autoAt`, the context size in tokens at
 * which core raises `session.compact` (trigger `auto`) before a request, and `microcompact`,
 * when and how old tool results are cleared from what is sent. No policy, no automatic work.
 */
export const COMPACT_POLICY_REF = { plugin: 'compaction', key: 'policy' } as const

const policySchema = z.object({
  autoAt: z.number().int().positive().optional(),
  microcompact: z.object({
    atTokens: z.number().int().min(0),
    keepRecent: z.number().int().min(0),
    tools: z.array(z.string()),
    marker: z.string().min(1),
  }).optional(),
})
export type CompactPolicy = z.infer<typeof policySchema>

export const FAILURE_LIMIT = 3
export const REFILL_LIMIT = 3
export const THRASHING = `Autocompact is thrashing: the context refilled to the limit right after compacting, ${REFILL_LIMIT} times in a row. Something keeps filling it (a large file or tool output); work in smaller pieces, or run /compact with a focus.`

const historySchema = z.array(z.object({
  role: z.enum(['user', 'assistant']),
  content: z.union([z.string(), z.array(z.looseObject({ type: z.string() }))]),
})).min(1)

/** Messages a compaction queued for the caller's stream; a boundary carries the history to record after it. */
const pending = new WeakMap<Session, { message: SDKMessage; history?: MessageParam[] }[]>()
const warned = new WeakSet<Session>()

// The published policy is checked once per value, not before every request.
const checked = new WeakMap<object, CompactPolicy>()

function policyOf(session: Session): CompactPolicy | undefined {
  const { value } = session.host.state.get(COMPACT_POLICY_REF)
  if (value === undefined || value === null) return undefined
  const known = typeof value === 'object' ? checked.get(value) : undefined
  if (known) return known
  const parsed = policySchema.safeParse(value)
  if (parsed.success) {
    if (typeof value === 'object') checked.set(value, parsed.data)
    return parsed.data
  }
  if (!warned.has(session)) {
    warned.add(session)
    const issue = parsed.error.issues[0]
    session.options.log?.(`compaction: the published policy is malformed at ${issue?.path.join('.') || 'policy'} (${issue?.message}); automatic compaction is off`)
  }
  return undefined
}

// Who waits for queued messages while a command runs (see `flushWhile`).
const waiting = new WeakMap<Session, () => void>()

function queue(session: Session, message: { type: 'system'; subtype: string; [field: string]: unknown }, history?: MessageParam[]): void {
  const list = pending.get(session) ?? []
  list.push({ message: session.stamp({ ...message, parent_tool_use_id: session.agent?.parentToolUseId ?? null }) as SDKMessage, ...(history ? { history } : {}) })
  pending.set(session, list)
  waiting.get(session)?.()
}

/** Why an answer cannot stand as the conversation, or undefined when it can. */
function invalidHistory(messages: unknown): string | undefined {
  const parsed = historySchema.safeParse(messages)
  if (!parsed.success) return `the answer's messages are malformed at ${parsed.error.issues[0]?.path.join('.') || 'messages'}: ${parsed.error.issues[0]?.message}`
  const list = parsed.data
  if (list[0]!.role !== 'user') return 'the answer\'s conversation must open with a user message'
  for (let i = 0; i < list.length; i++) {
    const m = list[i]!
    if (m.role !== 'assistant' || typeof m.content === 'string') continue
    const uses = m.content.filter((b) => b.type === 'tool_use').map((b) => b.id)
    const next = list[i + 1]
    const answered = new Set(next && typeof next.content !== 'string' ? next.content.filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id) : [])
    const missing = uses.find((id) => !answered.has(id))
    if (missing !== undefined) return `the answer leaves tool_use ${String(missing)} without its tool_result in the next message`
  }
  return undefined
}

/**
 * Raises `session.compact` and, on a `{messages}` answer, installs them as the conversation the
 * next request sends. What is stored is untouched: the transcript gets a `compact_boundary` and
 * the new history after it (so a resume starts from there), everything before stays. Beneath
 * every handler, nothing compacts: the answer is a skip.
 */
export async function compactConversation(session: Session, trigger: SessionCompactInput['trigger'], instructions?: string): Promise<SessionCompactResult> {
  const meter = meterOf(session)
  if (meter.running) return { skip: 'a compaction is already running' }
  meter.running = true
  try {
    const started = performance.now()
    const tokens = contextTokens(session)
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
    const invalid = 'skip' in r ? undefined : invalidHistory(r.messages)
    if (invalid) r = { skip: invalid, isFailed: true }
    if ('skip' in r) {
      queue(session, { type: 'system', subtype: 'status', status: null, compact_result: 'failed', compact_error: r.skip })
      return r
    }
    const history = r.messages as MessageParam[]
    session.messages.splice(0, session.messages.length, ...history)
    resetAfterCompaction(session)
    const after = r.tokensAfter ?? contextTokens(session)
    const before = r.tokensBefore ?? tokens
    queue(session, {
      type: 'system', subtype: 'compact_boundary',
      compact_metadata: { trigger: trigger === 'auto' ? 'auto' : 'manual', pre_tokens: before, post_tokens: after, duration_ms: Math.round(performance.now() - started) },
    }, history)
    queue(session, { type: 'system', subtype: 'status', status: null, compact_result: 'success' })
    return { messages: r.messages, tokensBefore: before, tokensAfter: after }
  } finally {
    meter.running = false
  }
}

/**
 * Yields what compactions queued. After a boundary, the new history is recorded (not shown):
 * the transcript then holds boundary and history in order, which is what a resume rebuilds.
 */
export async function* flushCompaction(session: Session): AsyncGenerator<SDKMessage, void, undefined> {
  const list = pending.get(session)
  if (!list?.length) return
  pending.delete(session)
  for (const p of list) {
    yield p.message
    if (p.history) await recordHistory(session, p.history)
  }
}

/**
 * Waits for `work` (a slash command) and yields what compactions queue meanwhile, as they queue:
 * a `/compact` shows its `compacting` status while the summary is written, not after. `opening`
 * is yielded first, once: when the first of those arrives, else when the work is done.
 */
export async function* flushWhile<T>(session: Session, work: Promise<T>, opening: () => SDKMessage): AsyncGenerator<SDKMessage, T, undefined> {
  let done = false
  const settled = work.then(() => { done = true }, () => { done = true })
  let opened = false
  for (;;) {
    if (!done && !pending.get(session)?.length) {
      await new Promise<void>((resolve) => {
        waiting.set(session, resolve)
        void settled.then(resolve)
      })
      waiting.delete(session)
    }
    if (!opened) {
      opened = true
      yield opening()
    }
    yield* flushCompaction(session)
    // The work may have ended while a flushed message was being read: what it queued since goes out too.
    if (done && !pending.get(session)?.length) return work
  }
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
        message: { id: `msg_${uuid()}`, type: 'message' as const, role: 'assistant' as const, model: session.model, content: m.content as never, stop_reason: null, stop_sequence: null, usage: zeroUsage() },
      })
    await bus.emit('session.message', { message, shown: false, ...agent })
  }
}

/**
 * Before each request: clears old tool results when the policy says the context is large, then
 * compacts when it passes `autoAt`. Ends the turn (returns its ending) when the context refilled
 * right after compacting three times in a row; stops auto compaction after three failures.
 */
export async function* compactIfDue(session: Session): AsyncGenerator<SDKMessage, Ending | undefined, undefined> {
  yield* flushCompaction(session)
  const policy = policyOf(session)
  if (!policy) return undefined
  const meter = meterOf(session)
  let tokens = contextTokens(session)
  if (policy.microcompact && tokens >= policy.microcompact.atTokens && microcompact(session, policy.microcompact) > 0) tokens = contextTokens(session)
  if (policy.autoAt === undefined || meter.autoOff !== undefined) return undefined
  if (tokens < policy.autoAt) {
    meter.refills = 0
    return undefined
  }
  // At most one request since the last compaction, and full again: that compaction did not hold.
  meter.refills = meter.sinceCompact <= 1 ? meter.refills + 1 : 0
  if (meter.refills >= REFILL_LIMIT) {
    meter.refills = 0
    return { subtype: 'success', terminal: 'rapid_refill_breaker', text: THRASHING, isError: true }
  }
  const r = yield* compactShowingStatus(session)
  if (!('skip' in r)) meter.failures = 0
  else if (r.isFailed && ++meter.failures >= FAILURE_LIMIT) {
    meter.autoOff = `${FAILURE_LIMIT} automatic compactions in a row failed`
    yield session.stamp({
      type: 'system', subtype: 'informational', level: 'warning', parent_tool_use_id: session.agent?.parentToolUseId ?? null,
      content: `Automatic compaction is off for this session: ${meter.autoOff} (last: ${r.skip}). /compact still works.`,
    })
  }
  return undefined
}

/**
 * An auto compaction, with its `compacting` status yielded while the summary is written (spec
 * §3.9 step 1), not after: compactConversation queues it before its first await.
 */
async function* compactShowingStatus(session: Session): AsyncGenerator<SDKMessage, SessionCompactResult, undefined> {
  const running = compactConversation(session, 'auto')
  // Awaited below; this only keeps a failure while the status is being read from counting as unhandled.
  running.catch(() => undefined)
  yield* flushCompaction(session)
  const r = await running
  yield* flushCompaction(session)
  return r
}

export function isPromptTooLong(error: ModelApiError): boolean {
  return /prompt is too long|input is too long|prompt_too_long/i.test(error.message)
}

/**
 * The API refused the request as too long: compact once (whatever the policy) and retry, or end
 * the turn as `prompt_too_long` when that cannot help — compaction declined or failed, or the
 * request was already a retry after one.
 */
export async function* compactAfterTooLong(session: Session): AsyncGenerator<SDKMessage, Ending | 'retry', undefined> {
  const meter = meterOf(session)
  const ending = (why?: string): Ending => ({
    subtype: 'success', terminal: 'prompt_too_long', isError: true, text: `Prompt is too long${why ? ` · automatic compaction failed: ${why}` : ''}`,
  })
  if (meter.reactiveTried) return ending()
  meter.reactiveTried = true
  const r = yield* compactShowingStatus(session)
  return 'skip' in r ? ending(r.skip) : 'retry'
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
