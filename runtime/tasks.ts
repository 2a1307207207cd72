import type { TaskPatch } from '../core/events/types.js'
import { describeError, ModloopError } from '../core/errors.js'
import type { SDKUserMessage } from '../core/loop/messages.js'
import type { Session } from '../core/loop/session.js'
import { backgroundTasksChanged, taskNotification, taskProgress, taskStarted, taskUpdated, type BackgroundTaskEntry } from './task-messages.js'
import type { LiveTaskInfo, TaskEndSpec, TaskProgressSpec, TaskStartSpec } from '../core/mod/contracts.js'

interface LiveTask {
  spec: TaskStartSpec
  mod: string
  background: boolean
  /** Settles once the start was announced: the end waits for it, so it never overtakes the start. */
  started: Promise<void>
  ended: Promise<void>
  end: () => void
}

// How long stopping every task waits for their mods to end them (session end, a bound passed).
const STOP_ALL_GRACE_MS = 2_000

/**
 * The session's running tasks as the runtime sees them: what the stream announces (task_started,
 * task_updated, task_notification, background_tasks_changed), the catalog's task events, the
 * controls that reach a task (`Query.stopTask`, `Query.backgroundTasks`), and whether a task
 * still holds the stream open. The mods that run tasks keep everything else (ids, files, caps).
 * A background task's report is delivered as a prompt of its own through `deliver`.
 */
export class SessionTasks {
  private readonly live = new Map<string, LiveTask>()
  // What mods hold the stream open with besides tasks ($.session.hold), each with its mod and why.
  private readonly holds = new Set<{ mod: string; reason: string; quiet: boolean }>()
  /** Takes a finished background task's notification as a prompt (the session's input queue). */
  deliver: ((message: SDKUserMessage) => void) | undefined
  /** Told whenever the set of tasks that hold the session changes. */
  onChange: (() => void) | undefined

  constructor(private readonly session: Session) {}

  async start(mod: string, spec: TaskStartSpec): Promise<void> {
    checkStart(mod, spec)
    if (this.live.has(spec.taskId)) throw new ModloopError('MODLOOP_ERR_USAGE', `${mod}: $.task.start: task ${spec.taskId} is already running`, { mod, field: 'taskId' })
    let end!: () => void
    let announced!: () => void
    const task: LiveTask = {
      spec, mod, background: spec.isBackgrounded,
      started: new Promise<void>((resolve) => { announced = resolve }),
      ended: new Promise<void>((resolve) => { end = resolve }), end,
    }
    this.live.set(spec.taskId, task)
    try {
      const { stop: _s, toBackground: _b, holdsSession: _h, ...shown } = spec
      await this.session.host.bus.emit('task.start', { ...shown, mod })
      // The set of background tasks changes first, then the start is told: Claude Code's order.
      if (task.background) this.announceBackground()
      this.session.post(this.session.stamp(taskStarted(spec)))
    } finally {
      announced()
      this.onChange?.()
    }
  }

  async end(mod: string, spec: TaskEndSpec): Promise<void> {
    const task = this.live.get(spec?.taskId)
    if (!task) throw new ModloopError('MODLOOP_ERR_USAGE', `${mod}: $.task.end: no running task ${String(spec?.taskId)}`, { mod, field: 'taskId' })
    if (task.mod !== mod) throw new ModloopError('MODLOOP_ERR_USAGE', `${mod}: $.task.end: task ${spec.taskId} belongs to ${task.mod}`, { mod, field: 'taskId' })
    await task.started
    const { bus } = this.session.host
    const patch: TaskPatch = { status: spec.status === 'stopped' ? 'killed' : spec.status, end_time: Date.now(), ...(spec.error ? { error: spec.error } : {}) }
    const notified = task.background && typeof spec.notification === 'string'
    try {
      await bus.emit('task.update', { taskId: spec.taskId, patch })
      const { toolUseId, outputFile, ambient } = task.spec
      // An ambient task's end is told by its notification alone, as Claude Code tells it.
      if (!ambient) this.session.post(this.session.stamp(taskUpdated(spec.taskId, patch)))
      await bus.emit('task.end', {
        taskId: spec.taskId, status: spec.status, summary: spec.summary, outputFile, notified,
        ...(toolUseId ? { toolUseId } : {}), ...(spec.usage ? { usage: spec.usage } : {}),
      })
      this.session.post(this.session.stamp(taskNotification({ ...spec, outputFile, toolUseId, ambient })))
    } finally {
      this.live.delete(spec.taskId)
      if (task.background) this.announceBackground()
      if (notified) this.queue(spec.taskId, spec.notification!)
      task.end()
      this.onChange?.()
    }
  }

  /** `$.task.progress`: any mod may tell it, as the work a task runs (a subagent) may be another mod's than the task's. */
  async progress(mod: string, spec: TaskProgressSpec): Promise<void> {
    const task = this.live.get(spec?.taskId)
    if (!task) throw new ModloopError('MODLOOP_ERR_USAGE', `${mod}: $.task.progress: no running task ${String(spec?.taskId)}`, { mod, field: 'taskId' })
    await task.started
    if (!task.spec.ambient) this.session.post(this.session.stamp(taskProgress(spec, task.spec)))
  }

  /**
   * `$.task.notify`: words from a task for the main conversation while it runs (a watch's events,
   * a subagent's message to "main"), queued as an end's report is, so they join a running turn or
   * start one of their own after the answer. The task id labels them; whether a task's words
   * should reach the model at all is its mod's call. False once the session takes no more prompts.
   */
  notify(mod: string, taskId: string, text: string): boolean {
    if (typeof taskId !== 'string' || taskId === '') throw new ModloopError('MODLOOP_ERR_USAGE', `${mod}: $.task.notify needs the task's id`, { mod, field: 'taskId' })
    if (typeof text !== 'string' || text === '') throw new ModloopError('MODLOOP_ERR_USAGE', `${mod}: $.task.notify needs a text that is not empty`, { mod, field: 'text' })
    if (!this.deliver) return false
    this.queue(taskId, text)
    return true
  }

  /** `Query.stopTask`: stops one running task; it ends `stopped` through its mod. */
  async stop(taskId: string): Promise<void> {
    const task = this.live.get(taskId)
    if (!task) {
      const running = [...this.live.keys()]
      throw new ModloopError('MODLOOP_ERR_USAGE', `stopTask: no running task ${taskId}${running.length ? `; running: ${running.join(', ')}` : '; none is running'}`, { field: 'taskId' })
    }
    await task.spec.stop()
  }

  /**
   * `Query.backgroundTasks`: moves the foreground task a tool call waits on (that tool_use id's,
   * or every one) to the background. False only when a given id matched no foreground task.
   */
  async background(toolUseId?: string): Promise<boolean> {
    const moved: LiveTask[] = []
    for (const task of this.live.values()) {
      if (task.background || !task.spec.toBackground || (toolUseId !== undefined && task.spec.toolUseId !== toolUseId)) continue
      await task.started
      if (!task.spec.toBackground()) continue
      task.background = true
      moved.push(task)
      const patch: TaskPatch = { is_backgrounded: true }
      await this.session.host.bus.emit('task.update', { taskId: task.spec.taskId, patch })
      this.session.post(this.session.stamp(taskUpdated(task.spec.taskId, patch)))
    }
    if (moved.length > 0) {
      this.announceBackground()
      this.onChange?.()
    }
    return toolUseId === undefined || moved.length > 0
  }

  /** Whether a background task, or a mod's hold, still holds the stream open. */
  holding(): boolean {
    if (this.holds.size > 0) return true
    for (const task of this.live.values()) if (task.background && task.spec.holdsSession) return true
    return false
  }

  /**
   * `$.session.hold`: keeps a one-prompt run open, as a background task does, while a mod's work
   * is pending (a scheduled wake-up); bounded by the same wait (`--max-wait-tasks`). Answers the
   * release, which may be called more than once.
   */
  hold(mod: string, reason: string, quiet = false): () => void {
    if (typeof reason !== 'string' || reason === '') throw new ModloopError('MODLOOP_ERR_USAGE', `${mod}: $.session.hold needs { reason }, a text that is not empty`, { mod, field: 'reason' })
    const held = { mod, reason, quiet }
    this.holds.add(held)
    this.onChange?.()
    return () => {
      if (this.holds.delete(held)) this.onChange?.()
    }
  }

  /** The holds of mods, each as "mod: reason". */
  held(): string[] {
    return [...this.holds].filter((h) => !h.quiet).map((h) => `${h.mod}: ${h.reason}`)
  }

  list(): LiveTaskInfo[] {
    return [...this.live.values()].map(({ spec, mod, background }) => ({
      id: spec.taskId, type: spec.taskType, status: 'running' as const, description: spec.description, background,
      outputFile: spec.outputFile, mod, ...(spec.toolUseId ? { toolUseId: spec.toolUseId } : {}),
      ...(spec.subagentType ? { subagentType: spec.subagentType } : {}),
    }))
  }

  /** Stops every running task and waits (briefly) for their mods to end them: the session is closing or gave up waiting. */
  async stopAll(): Promise<void> {
    const tasks = [...this.live.values()]
    if (tasks.length === 0) return
    await Promise.all(tasks.map(async (t) => {
      try {
        await t.spec.stop()
      } catch (err) {
        this.session.options.log?.(`task ${t.spec.taskId} (${t.mod}) could not be stopped: ${describeError(err)}`)
      }
    }))
    let timer: NodeJS.Timeout | undefined
    await Promise.race([Promise.all(tasks.map((t) => t.ended)), new Promise((r) => { timer = setTimeout(r, STOP_ALL_GRACE_MS) })])
    clearTimeout(timer)
  }

  private announceBackground(): void {
    const tasks: BackgroundTaskEntry[] = [...this.live.values()].filter((t) => t.background)
      .map((t) => ({ task_id: t.spec.taskId, task_type: t.spec.taskType, ...(t.spec.subagentType ? { subagent_type: t.spec.subagentType } : {}), description: t.spec.description }))
    this.session.post(this.session.stamp(backgroundTasksChanged(tasks)))
  }

  private queue(taskId: string, text: string): void {
    const message: SDKUserMessage = {
      type: 'user', message: { role: 'user', content: text }, parent_tool_use_id: null, priority: 'later',
      origin: { kind: 'task-notification', task_id: taskId },
    }
    // None once the session stopped taking prompts (it is closing, or gave up on its tasks): their ends were shown, their reports are not run.
    this.deliver?.(message)
  }
}

function checkStart(mod: string, spec: TaskStartSpec): void {
  const bad = (field: string, what: string) => new ModloopError('MODLOOP_ERR_USAGE', `${mod}: $.task.start needs ${field}: ${what}`, { mod, field })
  if (typeof spec !== 'object' || spec === null) throw bad('spec', 'an object')
  for (const field of ['taskId', 'taskType', 'outputFile'] as const) if (typeof spec[field] !== 'string' || spec[field] === '') throw bad(field, 'a non-empty string')
  if (typeof spec.description !== 'string') throw bad('description', 'a string')
  if (typeof spec.isBackgrounded !== 'boolean') throw bad('isBackgrounded', 'a boolean')
  if (typeof spec.stop !== 'function') throw bad('stop', 'a function')
}
