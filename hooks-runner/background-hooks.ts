import { classifyStdout } from './classify-stdout.js'
import type { BackgroundHookHandle, BackgroundHookResult, HookRecord } from './result-types.js'

type Listener = (result: BackgroundHookResult) => void

/**
 * Collects async hooks (spec §4.5) across firings: they run detached from the event that started
 * them, and their `additionalContext` and `systemMessage` are for the model's next turn. A host
 * calls `drain()` before each turn, listens with `onResult` for `asyncRewake` wake-ups, and calls
 * `cancelAll()` at teardown, which kills what is still running and records it as cancelled.
 */
export class BackgroundHooks {
  private readonly running = new Map<BackgroundHookHandle, AbortController>()
  private finished: BackgroundHookResult[] = []
  private readonly listeners = new Set<Listener>()

  /** Registers a started hook; the runner calls this. */
  track(handle: BackgroundHookHandle, controller: AbortController): void {
    this.running.set(handle, controller)
    void handle.done.then((result) => {
      this.running.delete(handle)
      this.finished.push(result)
      for (const listener of this.listeners) listener(result)
    })
  }

  /** Results that arrived since the last call, in arrival order. */
  drain(): BackgroundHookResult[] {
    const out = this.finished
    this.finished = []
    return out
  }

  /** Called as each background hook ends; returns its disposer. */
  onResult(listener: Listener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  get pending(): number {
    return this.running.size
  }

  /** Waits for every running background hook to end. */
  async settled(): Promise<void> {
    await Promise.all([...this.running.keys()].map((h) => h.done))
  }

  /** Kills every running background hook and waits until each is finalised as `cancelled`. */
  async cancelAll(): Promise<void> {
    const handles = [...this.running]
    for (const [, controller] of handles) controller.abort()
    await Promise.all(handles.map(([h]) => h.done))
  }
}

/**
 * What an ended async hook delivers. Its JSON decides nothing; fields of the wrong type are dropped
 * rather than failing the whole output (spec §4.5).
 */
export function backgroundResult(record: HookRecord, rewakeOnExit2: { message?: string; summary?: string } | undefined): BackgroundHookResult {
  const result: BackgroundHookResult = { record, event: record.event }
  if (record.outcome === 'cancelled' || record.outcome === 'timeout') return result
  const out = classifyStdout(record.stdout)
  if (out.kind === 'json') {
    const specific = out.value.hookSpecificOutput as { additionalContext?: unknown } | undefined
    if (typeof specific?.additionalContext === 'string' && specific.additionalContext) result.additionalContext = specific.additionalContext
    if (typeof out.value.systemMessage === 'string' && out.value.systemMessage) result.systemMessage = out.value.systemMessage
  }
  if (rewakeOnExit2 && record.exitCode === 2) {
    result.rewake = record.stderr.trim() || record.stdout.trim()
    if (rewakeOnExit2.message) result.rewakeMessage = rewakeOnExit2.message
    if (rewakeOnExit2.summary) result.rewakeSummary = rewakeOnExit2.summary
  }
  return result
}
