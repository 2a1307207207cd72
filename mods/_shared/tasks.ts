/**
 * The session's task registry, as the tasks mod provides it (`tasks`): subagents and background
 * shells register their work there, so one list, one cap and one set of stream messages cover
 * both. Each task has an id, a status, an output file under the session's directory, and start
 * and end times; a background task's report comes back to the model as a turn of its own.
 */

export type TaskType = 'local_agent' | 'local_bash'
export type TaskStatus = 'running' | 'completed' | 'failed' | 'stopped'

/**
 * How the work ended, as the mod that ran it says; a stopped task ends `stopped` whatever it returns.
 * `stopped`: the work stopped itself (a background command at its time limit), its summary and result saying why.
 */
export interface TaskOutcome {
  status: 'completed' | 'failed' | 'stopped'
  /** One line for people and the model (`Agent "…" completed`). */
  summary: string
  /** What the model reads of it in the notification: the subagent's report, the shell's exit. */
  result?: string
  error?: string
  usage?: { total_tokens: number; tool_uses: number }
  /**
   * What the stream's task_notification says of the end instead of `summary`, as Claude Code
   * shows it: a subagent's report (`report`), or why it failed.
   */
  notice?: { summary: string; report?: boolean }
  /** The work already told the model how it ended (a watch's expiry notice): the end is shown, no report is queued. */
  told?: boolean
}

export interface RunningTask {
  readonly id: string
  readonly outputFile: string
  /** Aborts when the task is stopped (Query.stopTask, KillShell, the session ending). */
  readonly signal: AbortSignal
  /** Whether it runs in the background now: a foreground task may be moved there. */
  readonly background: boolean
}

export interface TaskLaunch {
  type: TaskType
  description: string
  background: boolean
  /** The caller's own id for it (a shell's `bash_1`); else one is made. */
  id?: string
  toolUseId?: string
  subagentType?: string
  prompt?: string
  command?: string
  spawnDepth?: number
  /**
   * The subagent whose tool call started it (a shell a subagent ran in the background): it is
   * stopped when that subagent ends, and its end is no turn of the main conversation, whose model
   * never saw it start — as in Claude Code.
   */
  startedBy?: string
  /**
   * Where its reports go instead of the main conversation (a subagent's watch: that subagent's next
   * tool round): its events, and its end unless it was stopped. False: nobody takes them any more.
   */
  deliver?: (text: string) => boolean
  /** Keeps the session's stream open while it runs in the background (a subagent's report is awaited). */
  holdsSession?: boolean
  /** Part of the tool call that started it (a fork skill's subagent): the stream shows it so ($.task.start's `ambient`). */
  ambient?: boolean
  /** Does the work; a throw ends it failed. */
  run(task: RunningTask): Promise<TaskOutcome>
  /** Moves it from the foreground to the background (its tool call returns at once); false when it cannot. */
  toBackground?(): boolean
}

/** What the registry keeps of a task (and writes to `<session dir>/tasks/<id>.json`). */
export interface TaskRecord {
  id: string
  type: TaskType
  description: string
  status: TaskStatus
  background: boolean
  outputFile: string
  toolUseId?: string
  subagentType?: string
  command?: string
  /** ms since the epoch. */
  startTime: number
  endTime?: number
  summary?: string
  /** Its latest one-line status while it runs: a subagent's progress summary (agentProgressSummaries). */
  activity?: string
  error?: string
  /** Why it ended as it did when no outcome says (a process that died with it running). */
  note?: string
  /** Stopped as its session ended, before the model was told: a resume tells it. */
  untold?: boolean
}

export interface TaskHandle {
  readonly id: string
  readonly outputFile: string
  /** Settles when the task ended, with its record and, unless it was stopped first, its outcome. */
  readonly done: Promise<{ record: TaskRecord; outcome?: TaskOutcome }>
  /** Settles when the task moved to the background. */
  readonly backgrounded: Promise<void>
}

export interface TaskRegistry {
  /** Starts a task; a background one past the cap is refused (the reason names the cap and the option). */
  launch(spec: TaskLaunch): Promise<{ task: TaskHandle } | { refused: string }>
  /** Why a background task would be refused now, if it would. */
  refusal(): string | undefined
  /** `<session dir>/tasks/`: where every task's output file is. */
  readonly dir: string
  /** Where a task of this id writes its output (`<session dir>/tasks/<id>.output`). */
  outputFileFor(id: string): string
  list(): TaskRecord[]
  get(id: string): TaskRecord | undefined
  /**
   * Stops a running task and waits for it to end; false when no such task runs. `quiet`: the model
   * stopped it itself (KillShell) and knows from that call's result, so the stream shows its end
   * but no notification turn runs for it, as in Claude Code.
   */
  stop(id: string, opts?: { quiet?: boolean }): Promise<boolean>
  /**
   * Tells the model of something a running background task saw, without ending it (a watch's
   * events): a `<task-notification>` with the summary and the event, delivered as an end's report
   * is, or to its `deliver`. False when it was not sent: no such task runs, or its reports go to no one.
   */
  notify(id: string, report: { summary: string; event: string }): boolean
  /** Stops the tasks a subagent started (`startedBy`) that still run: it has ended. */
  stopStartedBy(agentId: string): Promise<void>
  /** Sets a running task's one-line status (`activity`, which `/tasks` shows); nothing for one that is not running. */
  setActivity(id: string, text: string): void
}

declare module '../../core/mod/capabilities.js' {
  interface Capabilities {
    /** The task registry of a session, by session id (the tasks mod). */
    tasks: (sessionId: string) => TaskRegistry | undefined
  }
}
