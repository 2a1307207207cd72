import { runToolCall, type CallEnv, type CallOutcome, type CheckedInput, type ToolUse } from './pipeline.js'
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
}

/**
 * Runs the tool calls of one response. Consecutive read-only calls form one concurrent batch
 * (under the cap); any other call is a serial barrier. Read-only calls at the head of the
 * response start as soon as their block is complete in the stream. Results keep the original
 * order, and a failed call never cancels its siblings.
 */
export class ToolExecutor {
  private readonly slots: Slot[] = []
  private running = 0
  private readonly waiting: (() => void)[] = []
  /** True while every call so far is read-only: new read-only calls may start at once. */
  private openHead = true

  constructor(private readonly env: CallEnv, private readonly cap: number) {}

  add(use: ToolUse): void {
    const tool = this.env.tools.get(use.name)
    const valid = tool ? validateInput(tool, use.input) : undefined
    const readOnly = !tool || !valid?.ok || safeReadOnly(() => tool.isReadOnly(valid.input))
    const slot: Slot = { use, readOnly, ...(tool && valid ? { checked: { tool, valid } } : {}) }
    this.slots.push(slot)
    if (this.openHead && readOnly) slot.outcome = this.limited(slot)
    else this.openHead = false
  }

  /** Runs whatever has not started, in order, and resolves every outcome in the original order. */
  async finish(): Promise<CallOutcome[]> {
    for (let i = 0; i < this.slots.length; i++) {
      const slot = this.slots[i]!
      if (slot.outcome) continue
      if (!slot.readOnly) {
        await Promise.allSettled(this.slots.slice(0, i).map((s) => s.outcome))
        slot.outcome = runToolCall(this.env, slot.use, slot.checked)
        await slot.outcome.catch(() => {})
        continue
      }
      await Promise.allSettled(this.slots.slice(0, i).map((s) => s.outcome))
      for (let j = i; j < this.slots.length && this.slots[j]!.readOnly; j++) this.slots[j]!.outcome = this.limited(this.slots[j]!)
    }
    return Promise.all(this.slots.map((s) => s.outcome!))
  }

  get size(): number {
    return this.slots.length
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

function safeReadOnly(fn: () => boolean): boolean {
  try {
    return fn() === true
  } catch {
    return false
  }
}
