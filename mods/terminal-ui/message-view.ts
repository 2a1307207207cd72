import cliTruncate from 'cli-truncate'
import type { SDKMessage, SDKResultMessage } from '../../core/loop/messages.js'
import { contextWindow } from '../../core/model/pricing.js'
import { INTERRUPTED } from '../../core/tools/pipeline.js'
import { wrap } from './chooser.js'
import type { Paint } from './color.js'
import { MarkdownStream, renderMarkdown } from './markdown.js'
import type { Screen } from './screen.js'
import { compactFailure, retryLine, retryOf, systemLine, type Retry } from './system-view.js'
import { ThinkingLog } from './thinking-view.js'
import { detailLines, doneLine, fitTitle, printable, seconds, SPINNER, todoLines, toolTitle, type Outcome } from './tool-view.js'
import { TaskListSeen } from '../_shared/task-list-seen.js'

interface Running {
  title: string
  name: string
  started: number
  depth: number
  /** The Agent call whose subagent made this call. */
  parent?: string
  /** Time spent waiting for a permission answer, left out of the call's time. */
  waited: number
  /** Set while a permission ask for the call is open. */
  askedAt?: number
  input: unknown
}

/** Facts the status line shows, updated from the message stream. */
export interface Totals {
  model: string
  costUsd: number
  contextTokens: number
  contextWindow: number
}

/**
 * Turns the message stream into terminal output: answers as markdown block by block while they
 * stream, thinking dimmed while it streams and then collapsed to one line (Ctrl+O expands), one line per tool call (a spinner while it runs, then its outcome and
 * duration, with a diff, the todo list or the head of its output), and command output.
 */
export class MessageView {
  readonly totals: Totals = { model: '', costUsd: 0, contextTokens: 0, contextWindow: 0 }
  private readonly running = new Map<string, Running>()
  private readonly taskList = new TaskListSeen()
  private readonly finished = new Map<string, { outcome: Outcome; ms: number }>()
  private md = new MarkdownStream()
  private readonly thoughts: ThinkingLog
  private thinking = ''
  private blockKind: string | undefined
  private streamed = false
  private shownText = false
  private chain: Promise<void> = Promise.resolve()
  private frame = 0
  /** Set while a compaction runs (a `status: 'compacting'` message until the next status). */
  private compacting: number | undefined
  /** The retry the request waits for, shown live until the next attempt answers. */
  private retry: Retry | undefined
  /** A failed compaction's error, held until the next message shows whether a command reported it already. */
  private failedCompaction: string | undefined
  /** The tasks running in the background, whose ends get a line. */
  private readonly background = new Set<string>()
  /** Each task's Agent or Bash call, by task id: a background subagent's calls outlive the turn that started it. */
  private readonly taskCalls = new Map<string, string>()
  /** The session's working directory, once it has one: tool titles name files under it relatively. */
  cwd: (() => string) | undefined

  constructor(private readonly screen: Screen, private readonly paint: Paint, private readonly changed: () => void) {
    this.thoughts = new ThinkingLog(paint)
  }

  /** Ctrl+O: shows the last turn's thinking in full and keeps new thinking full, or goes back to one line per block. */
  toggleThinking(): void {
    void this.print(this.thoughts.toggle())
  }

  /** A tool.call outcome as the terminal-ui mod saw it beneath every other mod. */
  toolOutcome(id: string, outcome: Outcome, ms: number): void {
    this.finished.set(id, { outcome, ms })
  }

  /** A permission ask for a call opened or was answered: the wait is not the call's time. */
  asking(id: string | undefined, open: boolean): void {
    const run = id === undefined ? undefined : this.running.get(id)
    if (!run) return
    if (open) run.askedAt = performance.now()
    else if (run.askedAt !== undefined) {
      run.waited += performance.now() - run.askedAt
      run.askedAt = undefined
    }
    this.changed()
  }

  /** Prints in order, even where a markdown block is still rendering. */
  print(text: string): Promise<void> {
    this.chain = this.chain.then(() => this.screen.print(text))
    return this.chain
  }

  /** Waits until everything handed to print has been printed. */
  settled(): Promise<void> {
    return this.chain
  }

  tick(): void {
    this.frame = (this.frame + 1) % SPINNER.length
  }

  get busyWithTools(): boolean {
    return this.running.size > 0 || this.compacting !== undefined
  }

  /** Whether a call of the main conversation (not of a subagent) still runs. */
  get busyWithTopLevelTools(): boolean {
    return [...this.running.values()].some((r) => r.depth === 0)
  }

  /** The live part: running calls with a spinner, and the answer's unfinished paragraph. */
  liveLines(): string[] {
    const now = performance.now()
    const lines = [...this.running.values()].map((r) => {
      const time = r.askedAt !== undefined ? 'waiting for permission' : seconds(now - r.started - r.waited)
      return fitTitle(`${'  '.repeat(r.depth)}${this.paint.cyan(SPINNER[this.frame]!)} `, r.title, ` ${this.paint.dim(time)}`, this.screen.columns - 1)
    })
    if (this.retry) lines.push(retryLine(this.retry, now, this.paint))
    if (this.compacting !== undefined) lines.push(`${this.paint.cyan(SPINNER[this.frame]!)} Compacting the conversation… ${this.paint.dim(seconds(now - this.compacting))}`)
    const tail = this.blockKind === 'thinking' ? this.thinking : this.md.tail
    if (tail.trim()) {
      // Wrapped before the last rows are taken: a paragraph still streaming is one long line, and
      // cut at the width it would show only its start, standing still until it ends.
      const rows = printable(tail).trimEnd().split('\n').flatMap((l) => wrap(l, this.screen.columns - 1)).slice(-3)
      lines.unshift(...rows.map((r) => (this.blockKind === 'thinking' ? this.paint.dim(r) : r)))
    }
    return lines
  }

  onMessage(m: SDKMessage): void {
    if (this.failedCompaction !== undefined && !(m.type === 'system' && m.subtype === 'status')) {
      const error = this.failedCompaction
      this.failedCompaction = undefined
      if (!(m.type === 'result' && m.result?.includes(error))) void this.print(this.paint.yellow(`⚠ Compaction failed: ${error}`))
    }
    // An answer, or the turn's end, is what the retry waited for.
    if (m.type === 'stream_event' || m.type === 'assistant' || m.type === 'result') this.retry = undefined
    switch (m.type) {
      case 'system':
        this.onSystem(m)
        return
      case 'stream_event':
        if (m.parent_tool_use_id) return
        this.streamed = true
        this.onStreamEvent(m.event as { type: string; delta?: { type: string; text?: string; thinking?: string }; content_block?: { type: string } })
        return
      case 'assistant':
        this.onAssistant(m)
        return
      case 'user':
        this.onToolResult(m)
        return
      case 'result':
        this.onResult(m)
    }
  }

  private onSystem(m: Extract<SDKMessage, { type: 'system' }>): void {
    if (m.subtype === 'init') {
      this.totals.model = String(m.model)
      this.totals.contextWindow = contextWindow(this.totals.model)
      this.shownText = false
      this.thoughts.turnStarted()
      return
    }
    if (m.subtype === 'status') {
      this.compacting = m.status === 'compacting' ? performance.now() : undefined
      this.failedCompaction = compactFailure(m) ?? this.failedCompaction
    }
    // A foreground task is its tool line already: only background tasks get lines of their own.
    if (m.subtype === 'task_started' && typeof m.tool_use_id === 'string') this.taskCalls.set(String(m.task_id), m.tool_use_id)
    if (m.subtype === 'task_started' && m.is_backgrounded === true) this.background.add(String(m.task_id))
    if (m.subtype === 'task_updated' && (m.patch as { is_backgrounded?: boolean } | undefined)?.is_backgrounded) this.background.add(String(m.task_id))
    if (m.subtype === 'task_notification') this.dropCallsOf(String(m.task_id))
    if (m.subtype === 'task_notification' && !this.background.delete(String(m.task_id))) return this.changed()
    const post = m.subtype === 'compact_boundary' ? (m.compact_metadata as { post_tokens?: unknown } | undefined)?.post_tokens : undefined
    if (typeof post === 'number') this.totals.contextTokens = post
    // A retried request starts its answer afresh: the failed attempt's unfinished paragraph or
    // thinking is dropped, not run together with the new answer's first words.
    if (m.subtype === 'api_retry') this.dropUnfinished()
    this.retry = retryOf(m, performance.now()) ?? this.retry
    const line = systemLine(m, this.paint, this.screen.columns - 1)
    if (line) void this.print(line)
    this.changed()
  }

  /** A task ended: the calls its subagent still had open will not report. */
  private dropCallsOf(taskId: string): void {
    const call = this.taskCalls.get(taskId)
    this.taskCalls.delete(taskId)
    for (const [id, run] of this.running) if (call !== undefined && run.parent === call) this.running.delete(id)
  }

  private onStreamEvent(ev: { type: string; delta?: { type: string; text?: string; thinking?: string }; content_block?: { type: string } }): void {
    if (ev.type === 'content_block_start') {
      this.blockKind = ev.content_block?.type
      this.thinking = ''
      if (this.blockKind === 'thinking') this.thoughts.blockStarted()
    } else if (ev.type === 'content_block_delta' && ev.delta?.type === 'text_delta') {
      this.shownText = true
      for (const block of this.md.push(ev.delta.text ?? '')) this.printMarkdown(block)
      this.changed()
    } else if (ev.type === 'content_block_delta' && ev.delta?.type === 'thinking_delta') {
      this.thinking += ev.delta.thinking ?? ''
      this.changed()
    } else if (ev.type === 'content_block_stop') {
      if (this.blockKind === 'thinking') this.printThinking(this.thinking)
      if (this.blockKind === 'text') {
        const rest = this.md.flush()
        if (rest) this.printMarkdown(rest)
      }
      this.blockKind = undefined
      this.thinking = ''
      this.changed()
    }
  }

  private onAssistant(m: Extract<SDKMessage, { type: 'assistant' }>): void {
    // An API failure's stand-in response: the result shows its text, and it used no context.
    if (m.is_api_error_message) return
    const depth = m.parent_tool_use_id ? 1 : 0
    if (!m.parent_tool_use_id) {
      const u = m.message.usage
      this.totals.contextTokens = u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens + u.output_tokens
    }
    for (const block of m.message.content) {
      if (block.type === 'tool_use') {
        this.running.set(block.id, { title: toolTitle(block.name, block.input, this.cwd?.()), name: block.name, input: block.input, started: performance.now(), depth, parent: m.parent_tool_use_id ?? undefined, waited: 0 })
        this.changed()
      } else if (depth === 0 && !this.streamed && block.type === 'text') {
        this.shownText = true
        this.printMarkdown(block.text)
      } else if (depth === 0 && !this.streamed && block.type === 'thinking') {
        this.printThinking(block.thinking)
      }
    }
  }

  private onToolResult(m: Extract<SDKMessage, { type: 'user' }>): void {
    const content = m.message.content
    if (!Array.isArray(content)) return
    for (const block of content) {
      if (block.type !== 'tool_result') continue
      const run = this.running.get(block.tool_use_id)
      if (!run) continue
      this.running.delete(block.tool_use_id)
      const text = typeof block.content === 'string' ? block.content : (block.content ?? []).map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('\n')
      const seen = this.finished.get(block.tool_use_id)
      this.finished.delete(block.tool_use_id)
      const outcome: Outcome = text === INTERRUPTED ? 'interrupted' : seen?.outcome === 'denied' ? 'denied' : block.is_error ? 'error' : 'ok'
      const ms = Math.max(0, (seen?.ms ?? performance.now() - run.started) - run.waited - (run.askedAt === undefined ? 0 : performance.now() - run.askedAt))
      const pad = '  '.repeat(run.depth)
      const width = this.screen.columns - 1
      const tasks = run.depth > 0 || outcome !== 'ok' ? undefined : this.taskList.after(run.name, run.input, m.tool_use_result)
      const details = run.depth > 0 ? [] : tasks ? todoLines(tasks, this.paint) : detailLines(run.name, m.tool_use_result, text, outcome, this.paint)
      const lines = [doneLine(run.title, outcome, ms, this.paint, width - pad.length), ...details].map((l) => cliTruncate(`${pad}${l}`, width))
      void this.print(lines.join('\n'))
      this.changed()
    }
  }

  private onResult(r: SDKResultMessage): void {
    const rest = this.md.flush()
    if (rest) this.printMarkdown(rest)
    // The turn's calls end with it; a background subagent's go on, their lines still to come.
    const goingOn = new Set([...this.background].map((t) => this.taskCalls.get(t)))
    for (const [id, run] of this.running) if (run.parent === undefined || !goingOn.has(run.parent)) this.running.delete(id)
    // Outcomes of calls whose tool_use was never shown (a subagent's, a dropped one) go with the turn.
    this.finished.clear()
    this.totals.costUsd = r.total_cost_usd
    if (r.terminal_reason === 'aborted_streaming' || r.terminal_reason === 'aborted_tools') {
      void this.print(this.paint.yellow('  ⎿ Interrupted. What should modloop do instead?'))
    } else if (!this.shownText && r.result) {
      // Command output and refusals arrive only as the result's text.
      void this.print(r.is_error ? this.paint.red(r.result) : r.result)
    } else if (r.is_error && r.errors?.length) {
      void this.print(this.paint.red(`${r.subtype}: ${r.errors.join('; ')}`))
    } else if (r.is_error && r.result && r.terminal_reason !== 'completed') {
      void this.print(this.paint.red(r.result))
    }
    this.shownText = false
    this.changed()
  }

  private dropUnfinished(): void {
    this.md = new MarkdownStream()
    this.blockKind = undefined
    this.thinking = ''
  }

  private printThinking(text: string): void {
    const shown = this.thoughts.blockEnded(text)
    if (shown) void this.print(shown)
  }

  private printMarkdown(block: string): void {
    const width = this.screen.columns - 2
    this.chain = this.chain.then(async () => {
      this.screen.print(await renderMarkdown(block, width, this.paint))
    })
  }
}
