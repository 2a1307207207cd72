import type { RunningTask, TaskOutcome, TaskRegistry } from '../_shared/tasks.js'
import type { Env } from '../bash/run-shell.js'
import { EventGate, type RateLimits } from './event-gate.js'
import { cappedEvent, endedSummary, eventSummary, expiredNotice, failedSummary, heldNotice, notStartedSummary, OVERRUN_RESULT, overrunSummary } from './texts.js'
import { Watch } from './watch.js'

export interface MonitorRun {
  description: string
  script: string
  cwd: string
  env: Env
  timeoutMs: number
  batchMs: number
  /** The most characters one notification's event carries; past it, it is cut and says so. */
  maxEventChars: number
  rate: RateLimits
}

/**
 * The work of a monitor's task: runs the command, hands each batch of its stdout lines to the
 * model as an event, and ends it at its deadline (one notice, with the count), when the
 * registry stops it (TaskStop, Query.stopTask, the session's end), or when it floods.
 */
export async function runMonitor(m: MonitorRun, task: RunningTask, registry: TaskRegistry): Promise<TaskOutcome> {
  const summary = eventSummary(m.description)
  let events = 0
  let overrun = false
  const gate = new EventGate(m.rate, (held) => registry.notify(task.id, { summary, event: heldNotice(held, m.rate) }), () => {
    overrun = true
    void watch.kill()
  })
  const watch = new Watch(m.script, m.cwd, m.env, task.outputFile, m.batchMs, m.maxEventChars, (lines) => {
    if (!gate.admit()) return
    events += lines.length
    registry.notify(task.id, { summary, event: cappedEvent(lines.join('\n'), m.maxEventChars, task.outputFile) })
  })
  let expired = false
  const deadline = setTimeout(() => {
    expired = true
    // What it printed before the deadline goes first; nothing it prints as it is killed follows the
    // notice, nor the count of a window's held-back batches (its kill may outlast the window).
    watch.hush()
    gate.dispose()
    registry.notify(task.id, { summary, event: expiredNotice(m.timeoutMs, events) })
    void watch.kill()
  }, m.timeoutMs)
  const stop = () => {
    gate.dispose()
    void watch.kill()
  }
  task.signal.addEventListener('abort', stop, { once: true })
  if (task.signal.aborted) stop()
  const { code, error } = await watch.ended
  clearTimeout(deadline)
  gate.dispose()
  task.signal.removeEventListener('abort', stop)
  // Its expiry notice told the model already: the stream shows the end, no second report follows.
  if (expired) return { status: 'stopped', summary: m.description, told: true }
  if (overrun) return { status: 'stopped', summary: overrunSummary(m.description), result: OVERRUN_RESULT }
  // Its spawn failed (its directory was removed, say): no signal ended it, it never ran.
  if (error !== undefined) return { status: 'failed', summary: notStartedSummary(m.description), result: `Its command could not be started: ${error}`, error }
  if (code === 0) return { status: 'completed', summary: endedSummary(m.description) }
  const summaryLine = failedSummary(m.description, code)
  return { status: 'failed', summary: summaryLine, error: code === null ? 'ended by a signal' : `exit code ${code}` }
}
