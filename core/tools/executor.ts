import { INTERRUPTED, runToolCall, type CallEnv, type CallOutcome, type CheckedInput, type ToolUse } from './pipeline.js'
import { validateInput } from './tool.js'
import { envInteger, envSetting } from '../env.js'

type Env = Readonly<Record<string, string | undefined>>

/**
 * The cap on concurrent read-only calls: the MAX_TOOL_USE_CONCURRENCY setting, else 10 — from
 * the query's `env` first, then the process's.
 */
export function concurrencyCap(env: Env | undefined, processEnv: Env = process.env): number {
  return envInteger(envSetting(env, 'MAX_TOOL_USE_CONCURRENCY') !== undefined ? env : processEnv, 'MAX_TOOL_USE_CONCURRENCY', 10, 1)
}

interface Slot {
  use: ToolUse
  readOnly: boolean
  /** The input as checked against the tool's schema when the call was added (the call does not check it again). */
  checked?: CheckedInput
  outcome?: Promise<CallOutcome>
  /** Settles once the call has started (its outcome is set). */
  started: Promise<void>
  start: () => void
}

/**
 * Runs the tool calls of one response, each as soon as its block is complete in the stream and
 * the calls before it allow: any call starts when none is running, and a read-only call also
 * beside read-only ones (under the cap). So consecutive read-only calls form one concurrent batch,
 * any other call runs alone and is a barrier, and calls start in their order, never past one that
 * must wait. A call at the head of the response, read-only or not, runs while the rest of the
 * response streams, as Claude Code's executor runs it. Results keep the original order, and a
 * failed call never cancels its siblings; but once an approver denies a call with `interrupt`, no
 * later call starts: each is answered as not run, since the person stopped the turn there.
 */
export class ToolExecutor {
  private readonly slots: Slot[] = []
  private running = 0
  private readonly waiting: (() => void)[] = []
  /** Calls started and not yet settled, and how many of them are not read-only. */
  private active = 0
  private activeWriters = 0
  private stopped = false
  /** An approver denied a call with `interrupt`: the calls not started are answered as not run. */
  private interrupted = false

  constructor(private readonly env: CallEnv, private readonly cap: number) {}

  add(use: ToolUse): void {
    const tool = this.env.tools.get(use.name)
    const valid = tool ? validateInput(tool, use.input, { fromModel: true, at: this.env }) : undefined
    const readOnly = !tool || !valid?.ok || safeReadOnly(() => tool.isReadOnly(valid.input))
    let start!: () => void
    const started = new Promise<void>((resolve) => { start = resolve })
    this.slots.push({ use, readOnly, ...(tool && valid ? { checked: { tool, valid } } : {}), started, start })
    this.pump()
  }

  /**
   * Runs whatever has not started, in order: one promise per call, in the original order, each
   * settling with its call. After settle() nothing more starts: what started is all there is.
   */
  each(): Promise<CallOutcome>[] {
    if (this.stopped) return this.slots.flatMap((s) => (s.outcome ? [s.outcome] : []))
    this.pump()
    return this.slots.map((s) => s.started.then(() => s.outcome!))
  }

  /**
   * Starts nothing more and resolves the outcomes of the calls already started (the turn was
   * stopped, or the response is not kept): a call that never started has none, and is answered
   * as not run.
   */
  settle(): Promise<CallOutcome[]> {
    this.stopped = true
    return Promise.all(this.slots.flatMap((s) => (s.outcome ? [s.outcome] : [])))
  }

  get size(): number {
    return this.slots.length
  }

  /** Starts the calls that may start now, in order; called as each is added and as each settles. */
  private pump(): void {
    if (this.stopped) return
    for (const slot of this.slots) {
      if (slot.outcome) continue
      if (this.interrupted) {
        slot.outcome = Promise.resolve(notRun(slot.use))
        slot.start()
        continue
      }
      if (this.active > 0 && (!slot.readOnly || this.activeWriters > 0)) return
      this.begin(slot)
      // A call that is not read-only runs alone: the next waits for it to settle.
      if (!slot.readOnly) return
    }
  }

  private begin(slot: Slot): void {
    this.active++
    if (!slot.readOnly) this.activeWriters++
    const run = slot.readOnly ? this.limited(slot) : runToolCall(this.env, slot.use, slot.checked)
    slot.outcome = run.then((o) => {
      if (o.endAfterBatch?.kind === 'interrupt') this.interrupted = true
      return o
    }).finally(() => {
      this.active--
      if (!slot.readOnly) this.activeWriters--
      this.pump()
    })
    // each() or settle() awaits it; a call failing while the response still streams is not unhandled meanwhile.
    slot.outcome.catch(() => {})
    slot.start()
  }

  private async limited(slot: Slot): Promise<CallOutcome> {
    if (this.running >= this.cap) await new Promise<void>((resolve) => this.waiting.push(resolve))
    this.running++
    try {
      return await runToolCall(this.env, slot.use, slot.checked)
    } finally {
      this.running--
      this.waiting.shift()?.()
    }
  }
}

/** A call that never started because the turn was stopped before it: answered as interrupted. */
function notRun(use: ToolUse): CallOutcome {
  return { toolUseId: use.id, name: use.name, input: use.input, result: INTERRUPTED, text: INTERRUPTED, isError: true, denied: false, interrupted: true, durationMs: 0 }
}

function safeReadOnly(fn: () => boolean): boolean {
  try {
    return fn() === true
  } catch {
    return false
  }
}
