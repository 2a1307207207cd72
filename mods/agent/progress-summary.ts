import type { ForkRequest, ForkResult } from '../../core/mod/contracts.js'
import type { SDKMessage } from '../../core/loop/messages.js'
import { describeError } from '../../core/errors.js'

/** The clock summaries are timed by: `$.clock`, or one a test moves by hand. */
export interface SummaryClock {
  now(): number
  after(ms: number, fn: () => void): { cancel(): void }
}

export type ForkFn = (req: ForkRequest, options?: { signal?: AbortSignal }) => Promise<ForkResult>

/** How often a running subagent is summarised, as Claude Code's agentProgressSummaries does (~30 s). */
export const SUMMARY_EVERY_MS = 30_000
// A subagent waiting on a response whose previous one began this long ago has likely lost its
// prompt cache: a fork then would pay for the whole conversation, so it waits, up to MAX_DELAY_MS.
export const COLD_CACHE_MS = 270_000
export const MAX_DELAY_MS = 300_000

// Asked after the subagent's conversation, in a request that shares its prompt cache.
const PROMPT = [
  '[Progress summary] Do not continue the task and do not call any tool.',
  'Say in 3 to 6 words, present tense, what you are working on right now, naming the file, function or command concerned:',
  'good: "Reading src/auth/session.ts", "Fixing the null check in validate.ts", "Running the parser tests".',
  'Too vague: "Investigating the issue", "Working on the task".',
  'Reply with those words alone: no quotes, no period, nothing else.',
].join('\n')

/**
 * The periodic summaries of one running subagent (the agentProgressSummaries option): every
 * SUMMARY_EVERY_MS its conversation is forked for a few words saying what it does, handed to
 * `post` (a task_progress with `summary`). None while its conversation is unchanged since the
 * last one, none after it ends (a summary still being made is dropped), and none while it waits on
 * a response with a likely cold cache unless MAX_DELAY_MS went by since the last.
 */
export class ProgressSummaries {
  private timer: { cancel(): void } | undefined
  private pending: AbortController | undefined
  private ended = false
  /** Its messages so far (answers and tool results), and how many the last summary covered. */
  private messages = 0
  private covered = -1
  /** Whether it waits on a model response: from the start, and after each round of tool results. */
  private waiting = true
  private lastResponseAt: number | undefined
  private lastSummaryAt: number

  constructor(private readonly clock: SummaryClock, private readonly fork: ForkFn, private readonly post: (summary: string) => Promise<void>, private readonly log: (line: string) => void) {
    this.lastSummaryAt = clock.now()
    this.schedule()
  }

  /** One of its messages, as it is recorded. */
  seen(m: SDKMessage): void {
    if (m.type === 'assistant') {
      this.messages++
      this.waiting = false
      this.lastResponseAt = this.clock.now()
    } else if (m.type === 'user') {
      this.messages++
      this.waiting = true
    }
  }

  end(): void {
    this.ended = true
    this.timer?.cancel()
    this.pending?.abort()
  }

  // Timed from each start; a tick while the last summary is still being made passes.
  private schedule(): void {
    this.timer = this.clock.after(SUMMARY_EVERY_MS, () => {
      if (this.ended) return
      this.schedule()
      if (!this.pending) void this.tick()
    })
  }

  private async tick(): Promise<void> {
    if (this.messages === this.covered) return
    const now = this.clock.now()
    const cold = this.waiting && (this.lastResponseAt === undefined || now - this.lastResponseAt >= COLD_CACHE_MS)
    if (cold && now - this.lastSummaryAt < MAX_DELAY_MS) return
    const covering = this.messages
    const abort = (this.pending = new AbortController())
    try {
      const r = await this.fork({ prompt: PROMPT }, { signal: abort.signal })
      const summary = r.isAnswered ? summaryOf(r.text) : undefined
      if (this.ended || abort.signal.aborted || !summary) return
      this.covered = covering
      this.lastSummaryAt = this.clock.now()
      await this.post(summary)
    } catch (err) {
      this.log(`no progress summary: ${describeError(err)}`)
    } finally {
      this.pending = undefined
    }
  }
}

/** The reply's first line, without quotes or a closing period; nothing for an empty one. */
export function summaryOf(text: string): string | undefined {
  const line = text.split('\n').map((l) => l.trim()).find((l) => l !== '')
  if (!line) return undefined
  const bare = line.replace(/^["'`]+|["'`]+$/g, '').replace(/\.$/, '').trim()
  if (!bare) return undefined
  return bare.length > 120 ? `${bare.slice(0, 117)}...` : bare
}
