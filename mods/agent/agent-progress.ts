import { isAbsolute, relative } from 'node:path'
import type { SDKMessage } from '../../core/loop/messages.js'
import type { ModApi } from '../../core/mod/api.js'
import { ProgressSummaries, type ForkFn, type SummaryClock } from './progress-summary.js'

interface Run {
  startedAt: number
  toolUses: number
  cwd: string
  /** The task's description: what a summary's task_progress says before any tool call. */
  description: string
  /** What its last task_progress said: a summary's repeats it. */
  activity?: string
  lastToolName?: string
  tokens: number
  summaries?: ProgressSummaries
}

/** With agentProgressSummaries on: the session's mod API, the subagent's fork, and who keeps its latest summary (its task's row). */
export interface Summarize { $: ModApi; fork: ForkFn; keep?: (summary: string) => void }

/**
 * How far each subagent that is a task has got, as Claude Code shows it: before each of its tool
 * calls the stream gets a task_progress saying what it is doing (`Reading src/a.ts`), the tool,
 * and its counts so far (tokens in its context, tool calls, time since it started). With
 * `summarize`, also a periodic summary of what it does (progress-summary.ts).
 */
export class AgentProgress {
  private readonly runs = new Map<string, Run>()

  constructor(private readonly clock: SummaryClock) {}

  start(agentId: string, cwd: string, o: { description: string; summarize?: Summarize }): void {
    this.runs.get(agentId)?.summaries?.end()
    const run: Run = { startedAt: this.clock.now(), toolUses: 0, cwd, description: o.description, tokens: 0 }
    const s = o.summarize
    if (s) {
      run.summaries = new ProgressSummaries(this.clock, s.fork, async (summary) => {
        s.keep?.(summary)
        await s.$.task.progress({
          taskId: agentId, description: run.activity ?? run.description, ...(run.lastToolName ? { lastToolName: run.lastToolName } : {}),
          usage: this.usage(run), summary,
        })
      }, (line) => s.$.log.debug(line))
    }
    this.runs.set(agentId, run)
  }

  end(agentId: string): void {
    this.runs.get(agentId)?.summaries?.end()
    this.runs.delete(agentId)
  }

  private usage(run: Run) {
    return { total_tokens: run.tokens, tool_uses: run.toolUses, duration_ms: this.clock.now() - run.startedAt }
  }

  /** One of the subagent's messages, as it is recorded: just before the stream shows it. */
  async seen($: ModApi, agentId: string, m: SDKMessage): Promise<void> {
    const run = this.runs.get(agentId)
    if (!run) return
    run.summaries?.seen(m)
    if (m.type !== 'assistant') return
    const u = m.message.usage
    run.tokens = u.input_tokens + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0) + u.output_tokens
    for (const block of m.message.content) {
      if (block.type !== 'tool_use') continue
      run.toolUses++
      run.activity = activity(block.name, block.input as Record<string, unknown>, run.cwd)
      run.lastToolName = block.name
      await $.task.progress({ taskId: agentId, description: run.activity, lastToolName: block.name, usage: this.usage(run) })
    }
  }
}

/** A tool call in a few words, as Claude Code words the ones it names; any other by the tool's name. */
function activity(tool: string, input: Record<string, unknown>, cwd: string): string {
  const text = (key: string) => (typeof input[key] === 'string' ? input[key] : '')
  const path = (key: string) => {
    const p = text(key)
    const rel = isAbsolute(p) ? relative(cwd, p) : p
    return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : p
  }
  switch (tool) {
    case 'Bash': return `Running ${text('description') || text('command')}`
    case 'Read': return `Reading ${path('file_path')}`
    case 'Write': return `Writing ${path('file_path')}`
    case 'Edit': return `Editing ${path('file_path')}`
    case 'Glob': return `Finding ${text('pattern')}`
    case 'Grep': return `Searching for ${text('pattern')}`
    case 'WebFetch': return `Fetching ${text('url')}`
    default: return tool
  }
}
