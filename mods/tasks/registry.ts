import { randomHex } from '../../core/random.js'
import { join } from 'node:path'
import { describeError } from '../../core/errors.js'
import type { ModApi } from '../../core/mod/api.js'
import type { RunningTask, TaskHandle, TaskLaunch, TaskOutcome, TaskRecord, TaskRegistry } from '../_shared/tasks.js'
import { eventText, notificationText, stoppedSummary } from './notification.js'
import { writeRecord } from './task-files.js'

interface Entry {
  record: TaskRecord
  abort: AbortController
  done: TaskHandle['done']
  /** Stopped by the model's own call, or started by a subagent: no notification turn. */
  quiet?: boolean
  startedBy?: string
  deliver?: TaskLaunch['deliver']
}

const newId = (type: TaskLaunch['type']) => `${type === 'local_agent' ? 'a' : 'b'}${randomHex(8)}`

/**
 * One session's tasks. A task is announced to core (`$.task.start`, which the stream shows and
 * Query.stopTask reaches), runs, and ends announced (`$.task.end`) with its record written beside
 * its output; a background task's end carries the notification that becomes the model's next turn.
 * At most `maxConcurrent` tasks run in the background at once.
 */
export class SessionTaskRegistry implements TaskRegistry {
  private readonly entries = new Map<string, Entry>()
  private writes: Promise<void> = Promise.resolve()
  /** Tasks whose notification turn the model has not had yet. */
  private readonly unseen = new Set<string>()

  constructor(private readonly $: ModApi, readonly dir: string, private readonly maxConcurrent: number) {}

  refusal(): string | undefined {
    const running = [...this.entries.values()].filter((e) => e.record.status === 'running' && e.record.background).length
    if (running < this.maxConcurrent) return undefined
    return `${running} background tasks are already running, the most this session allows (the tasks mod's maxConcurrent option). Wait for one to finish, stop one, or run this in the foreground.`
  }

  outputFileFor(id: string): string {
    return join(this.dir, `${id}.output`)
  }

  async launch(spec: TaskLaunch): Promise<{ task: TaskHandle } | { refused: string }> {
    const refused = spec.background ? this.refusal() : undefined
    if (refused) return { refused }
    const id = spec.id ?? newId(spec.type)
    // An id may run again once its task ended: a subagent resumed with a message reports under its own id.
    if (this.entries.get(id)?.record.status === 'running') return { refused: `a task with id ${id} is already running in this session` }
    const record: TaskRecord = {
      id, type: spec.type, description: spec.description, status: 'running', background: spec.background, outputFile: this.outputFileFor(id),
      startTime: Date.now(), ...(spec.toolUseId ? { toolUseId: spec.toolUseId } : {}), ...(spec.subagentType ? { subagentType: spec.subagentType } : {}),
      ...(spec.command ? { command: spec.command } : {}),
    }
    const abort = new AbortController()
    let moved!: () => void
    const backgrounded = new Promise<void>((resolve) => { moved = resolve })
    if (spec.background) moved()
    const running: RunningTask = { id, outputFile: record.outputFile, signal: abort.signal, get background() { return record.background } }
    // The work starts once its start is announced; a stop asked for meanwhile waits for it too.
    let go!: (announced: boolean) => void
    const gate = new Promise<boolean>((resolve) => { go = resolve })
    const entry: Entry = { record, abort, ...(spec.startedBy ? { quiet: true, startedBy: spec.startedBy } : {}), ...(spec.deliver ? { deliver: spec.deliver } : {}), done: gate.then((announced) => (announced ? this.run(spec, entry, running) : { record })) }
    this.entries.set(id, entry)
    this.save(record)
    try {
      await this.announce(spec, record, moved)
    } catch (err) {
      record.status = 'failed'
      record.error = describeError(err)
      record.endTime = Date.now()
      this.entries.delete(id)
      go(false)
      this.save(record)
      return { refused: `the task could not be started: ${record.error}` }
    }
    go(true)
    return { task: { id, outputFile: record.outputFile, done: entry.done, backgrounded } }
  }

  /** `$.task.start`: the stream shows it, and Query.stopTask and Query.backgroundTasks reach it through the handles given here. */
  private announce(spec: TaskLaunch, record: TaskRecord, moved: () => void): Promise<void> {
    const { id } = record
    return this.$.task.start({
      taskId: id, taskType: spec.type, description: spec.description, isBackgrounded: spec.background, outputFile: record.outputFile,
      holdsSession: spec.holdsSession === true, stop: async () => void (await this.stop(id)),
      ...(spec.toolUseId ? { toolUseId: spec.toolUseId } : {}), ...(spec.subagentType ? { subagentType: spec.subagentType } : {}),
      ...(spec.prompt !== undefined ? { prompt: spec.prompt } : {}), ...(spec.spawnDepth !== undefined ? { spawnDepth: spec.spawnDepth } : {}),
      ...(spec.ambient ? { ambient: true } : {}),
      ...(spec.toBackground ? {
        toBackground: () => {
          if (record.background || record.status !== 'running' || !spec.toBackground!()) return false
          record.background = true
          moved()
          this.save(record)
          return true
        },
      } : {}),
    })
  }

  private async run(spec: TaskLaunch, entry: Entry, running: RunningTask): Promise<{ record: TaskRecord; outcome?: TaskOutcome }> {
    const { record, abort } = entry
    let outcome: TaskOutcome | undefined
    try {
      outcome = await spec.run(running)
    } catch (err) {
      outcome = { status: 'failed', summary: `${record.type === 'local_agent' ? 'Agent' : 'Background command'} "${record.description}" failed: ${describeError(err)}`, error: describeError(err) }
    }
    const stopped = abort.signal.aborted
    record.status = stopped ? 'stopped' : outcome.status
    record.summary = stopped ? stoppedSummary(record) : outcome.summary
    record.endTime = Date.now()
    if (!stopped && outcome.error) record.error = outcome.error
    this.save(record)
    const durationMs = record.endTime - record.startTime
    const notifies = record.background && !entry.quiet && !outcome.told
    if (notifies) this.unseen.add(record.id)
    // Who started it hears how it ended, unless it stopped it itself or has ended (which stopped it).
    if (entry.deliver && record.background && !stopped && !outcome.told) entry.deliver(notificationText(record, outcome, durationMs))
    try {
      await this.$.task.end({
        taskId: record.id, status: record.status as 'completed' | 'failed' | 'stopped', ...shownEnd(record, stopped ? undefined : outcome.notice),
        ...(record.error ? { error: record.error } : {}),
        // Claude Code counts usage only for a task that completed, not one that failed or was stopped.
        ...(outcome.usage && record.status === 'completed' ? { usage: { ...outcome.usage, duration_ms: durationMs } } : {}),
        ...(notifies ? { notification: notificationText(record, stopped ? withoutResult(outcome) : outcome, durationMs) } : {}),
      })
    } catch (err) {
      this.$.log.warn(`task ${record.id}: its end could not be announced: ${describeError(err)}`)
    }
    return stopped ? { record } : { record, outcome }
  }

  list(): TaskRecord[] {
    return [...this.entries.values()].map((e) => ({ ...e.record }))
  }

  setActivity(id: string, text: string): void {
    const e = this.entries.get(id)
    if (e?.record.status === 'running') e.record.activity = text
  }

  get(id: string): TaskRecord | undefined {
    const e = this.entries.get(id)
    return e ? { ...e.record } : undefined
  }

  async stop(id: string, opts?: { quiet?: boolean }): Promise<boolean> {
    const e = this.entries.get(id)
    if (!e || e.record.status !== 'running') return false
    if (opts?.quiet) e.quiet = true
    e.abort.abort(new Error(`task ${id} was stopped`))
    await e.done
    return true
  }

  notify(id: string, report: { summary: string; event: string }): boolean {
    const e = this.entries.get(id)
    if (!e || e.record.status !== 'running' || !e.record.background) return false
    if (e.deliver) return e.deliver(eventText(e.record, report))
    if (e.quiet) return false
    this.$.task.notify(id, eventText(e.record, report))
    return true
  }

  async stopStartedBy(agentId: string): Promise<void> {
    await Promise.all([...this.entries.entries()].filter(([, e]) => e.startedBy === agentId).map(([id]) => this.stop(id)))
  }

  /** The model was given the task's report. */
  told(id: string): void {
    this.unseen.delete(id)
  }

  /** Whether a report the model has not been given is waiting. */
  get untold(): boolean {
    return this.unseen.size > 0
  }

  /**
   * Stops every running task, and lets the records be written: the session ends. A task stopped
   * before the model heard of its end (its report dropped as the session ended) is marked
   * `untold`, so a resume tells the model it did not finish.
   */
  async stopAll(): Promise<void> {
    await Promise.all([...this.entries.keys()].map((id) => this.stop(id)))
    for (const id of this.unseen) {
      const record = this.entries.get(id)?.record
      if (record?.status === 'stopped') this.save({ ...record, untold: true })
    }
    await this.writes
  }

  /** Records are written in order, off the task's path: a record is bookkeeping for a later resume, not a step of the work. */
  private save(record: TaskRecord): void {
    const copy = { ...record }
    this.writes = this.writes.then(() => writeRecord(this.dir, copy)).catch((err: unknown) => {
      this.$.log.warn(`task ${record.id}: its record could not be written in ${this.dir}: ${describeError(err)}`)
    })
  }

}

/**
 * What the stream's task_notification says of an end: the work's own notice (a subagent's report,
 * flagged as one in the background; why it failed), a stopped subagent's description, or the summary.
 */
function shownEnd(record: TaskRecord, notice: TaskOutcome['notice']): { summary: string; summaryIsReport?: true } {
  if (notice) return { summary: notice.summary, ...(notice.report && record.background ? { summaryIsReport: true as const } : {}) }
  if (record.status === 'stopped' && record.type === 'local_agent') return { summary: record.description }
  return { summary: record.summary ?? '' }
}

// A task stopped from outside: what its work answered as it was cut off is no report.
function withoutResult({ result: _, ...rest }: TaskOutcome): TaskOutcome {
  return rest
}
