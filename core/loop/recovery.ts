import type { ContentBlock } from '@anthropic-ai/sdk/resources/messages'
import type { ModelApiError } from '../model/types.js'

/** How a response that cannot stand is recovered from, within one turn (spec loop-and-sdk §3.4). */
export type Nudge = 'max_tokens' | 'cut' | 'thinking'

const MAX_TOKENS_RECOVERIES = 3
const CUT_STREAM_RECOVERIES = 3

const NUDGE_MAX_TOKENS = 'Your response was cut off by the output token limit. Continue exactly where you stopped: no apology, no recap.'
const NUDGE_THINKING = 'You finished thinking without answering. Give your answer now.'
export const NUDGE_MALFORMED = 'Your last tool call could not be read (its input was not valid JSON). Call the tool again with valid JSON input.'

/**
 * A response the model stopped writing because it ran out of room: its output cap, or the
 * context window (`model_context_window_exceeded`, a request whose max_tokens went past what the
 * window had left). Either is continued the same way, as Claude Code continues both.
 */
export function cutShort(stopReason: string | null): boolean {
  return stopReason === 'max_tokens' || stopReason === 'model_context_window_exceeded'
}

/**
 * The turn's recovery counters, in one place: a response cut by the token limit or a broken
 * stream is continued up to three times, a thinking-only answer and an unreadable tool call once
 * each. A recovery used up is not restored within the turn.
 */
export class Recovery {
  private left: Record<Nudge | 'malformed', number> = { max_tokens: MAX_TOKENS_RECOVERIES, cut: CUT_STREAM_RECOVERIES, thinking: 1, malformed: 1 }

  /** An unreadable tool call: retry the request once (the response is retracted), then give up. */
  retryMalformed(): boolean {
    return this.left.malformed-- > 0
  }

  /** The nudge a tool-less response calls for, taking one of its recoveries; undefined when none applies or none is left. */
  nudgeFor(step: { stopReason: string | null; error?: ModelApiError }, blocks: readonly ContentBlock[]): Nudge | undefined {
    const kind: Nudge | undefined = cutShort(step.stopReason) ? 'max_tokens'
      : step.error?.midStream ? 'cut'
      : blocks.length > 0 && blocks.every((b) => b.type === 'thinking' || b.type === 'redacted_thinking') ? 'thinking'
      : undefined
    if (kind === undefined || this.left[kind] <= 0) return undefined
    this.left[kind]--
    return kind
  }
}

/** What the model is told, for each nudge. */
export function nudgeText(nudge: Nudge, error?: ModelApiError): string {
  if (nudge === 'thinking') return NUDGE_THINKING
  if (nudge === 'cut') return `The response stream was cut off (${error?.message}). Continue where you stopped.`
  return NUDGE_MAX_TOKENS
}
