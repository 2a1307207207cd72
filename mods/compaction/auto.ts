import type { TurnOverflowInput, TurnRequestInput, TurnRequestResult } from '../../core/events/types.js'
import type { ModApi } from '../../core/mod/api.js'
import { microcompact, type MicrocompactRule } from './microcompact.js'

export const FAILURE_LIMIT = 3
export const REFILL_LIMIT = 3
export const THRASHING = `Autocompact is thrashing: the context refilled to the limit right after compacting, ${REFILL_LIMIT} times in a row. Something keeps filling it (a large file or tool output); work in smaller pieces, or run /compact with a focus.`

/** When the conversation is compacted or cut: `autoAt` (tokens; absent: no auto compaction) and the microcompaction rule. */
export interface Policy {
  autoAt?: number
  microcompact?: MicrocompactRule
}

/** One loop's record (the main conversation's, or a subagent's). */
interface Loop {
  /** The first message of the history last seen: another one means the history was replaced. */
  first: unknown
  /** Where microcompaction looks from. */
  microFrom: { from: number }
  /** Requests let through. */
  sent: number
  /** `sent` when the last compaction succeeded. */
  compactedAt: number | undefined
  /** Compactions in a row after which the context refilled to the limit at once. */
  refills: number
  /** Auto compactions in a row that failed. */
  failures: number
  /** Why auto compaction is off for this loop, once the failure breaker tripped. */
  autoOff: string | undefined
  /** `sent` as it will be for the retry after a compaction answered a prompt-too-long. */
  retryAt: number | undefined
}

/**
 * The decisions taken before each request (spec loop-and-sdk §3.9–3.10): clear old tool results
 * once the context is large, compact once it passes `autoAt`, and the two breakers — three failed
 * auto compactions in a row turn it off, and a context that refills right after compacting three
 * times in a row ends the turn. Kept per loop, for this session only.
 */
export class AutoCompaction {
  private readonly loops = new Map<string, Loop>()

  private loop(agentId: string | undefined): Loop {
    const key = agentId ?? ''
    let l = this.loops.get(key)
    if (!l) {
      l = { first: undefined, microFrom: { from: 0 }, sent: 0, compactedAt: undefined, refills: 0, failures: 0, autoOff: undefined, retryAt: undefined }
      this.loops.set(key, l)
    }
    return l
  }

  /** The answer to `turn.request`, or undefined to let the request go. */
  beforeRequest($: ModApi, e: TurnRequestInput, policy: Policy): TurnRequestResult | undefined {
    const l = this.loop(e.agentId)
    if (e.messages[0] !== l.first) {
      l.first = e.messages[0]
      l.microFrom.from = 0
    }
    if (e.compacted) this.noteCompaction($, l, e)
    else {
      const cut = policy.microcompact && e.tokens >= policy.microcompact.atTokens ? microcompact(e.messages, policy.microcompact, l.microFrom) : undefined
      if (cut) return { messages: cut }
      if (policy.autoAt !== undefined && l.autoOff === undefined) {
        if (e.tokens >= policy.autoAt) {
          // At most one request since the last compaction, and full again: that compaction did not hold.
          l.refills = l.compactedAt !== undefined && l.sent - l.compactedAt <= 1 ? l.refills + 1 : 0
          if (l.refills < REFILL_LIMIT) return { compact: {} }
          l.refills = 0
          return { end: { terminal: 'rapid_refill_breaker', text: THRASHING } }
        }
        l.refills = 0
      }
    }
    l.sent++
    return undefined
  }

  /** A request refused as too long: compact once and retry, unless it was that retry. */
  onOverflow(e: TurnOverflowInput): boolean {
    const l = this.loop(e.agentId)
    if (l.retryAt === l.sent) return false
    l.retryAt = l.sent + 1
    return true
  }

  /** A compaction outside the loop's own (`/compact`) counts for the refill breaker as well. */
  compacted(agentId?: string): void {
    const l = this.loop(agentId)
    l.compactedAt = l.sent
  }

  private noteCompaction($: ModApi, l: Loop, e: TurnRequestInput): void {
    const c = e.compacted!
    if (!('skip' in c)) {
      l.failures = 0
      l.compactedAt = l.sent
      return
    }
    if (!c.isFailed || ++l.failures < FAILURE_LIMIT) return
    l.autoOff = `${FAILURE_LIMIT} automatic compactions in a row failed`
    $.session.append({ message: {
      type: 'system', subtype: 'informational', level: 'warning',
      content: `Automatic compaction is off for this session: ${l.autoOff} (last: ${c.skip}). /compact still works.`,
    } })
  }
}
