import type { RateLimits } from './event-gate.js'

export const MONITOR_TOOL = 'Monitor'

/** `30s`, `5m`, `2m 30s`: how a monitor's time is worded to the model (whole seconds, rounded down; ms below one). */
export function duration(ms: number): string {
  if (ms < 1000) return `${ms}ms`
  const s = Math.floor(ms / 1000)
  if (s < 60) return `${s}s`
  return s % 60 === 0 ? `${s / 60}m` : `${Math.floor(s / 60)}m ${s % 60}s`
}

/** The Monitor call's result: the watch runs on as a task, and its events will come on their own. */
export function startedText(taskId: string, timeoutMs: number): string {
  return `Monitor started as task ${taskId}. It expires in ${duration(timeoutMs)} unless its command ends sooner, and you get a single notice then (start it again if the watch is still needed). ` +
    'Each event comes to you as a notification: carry on with the work, without polling or sleeping to wait for one. ' +
    'An event that arrives while you wait for the user is not the user answering.'
}

/** The summary line of every event notification: the description names which watch it is. */
export const eventSummary = (description: string) => `Monitor event: "${description}"`

/** One event's text within `max` characters: its head, then a line saying it was cut and where all of it is. */
export function cappedEvent(text: string, max: number, outputFile: string): string {
  if (text.length <= max) return text
  return `${text.slice(0, max)}\n[Cut at ${max} characters: the whole output is in ${outputFile}; read it with Read.]`
}

export function expiredNotice(timeoutMs: number, events: number): string {
  return `[Monitor expired after ${duration(timeoutMs)}; ${events} event${events === 1 ? ' was' : 's were'} delivered. Start it again if the watch is still needed.]`
}

export function heldNotice(count: number, limits: RateLimits): string {
  return `[${count} notification${count === 1 ? '' : 's'} held back: this monitor sends more than ${limits.maxPerWindow} every ${duration(limits.windowMs)}. Use TaskStop and start it again with a filter that lets fewer lines through.]`
}

export const endedSummary = (description: string) => `Monitor "${description}" stream ended`
export const failedSummary = (description: string, code: number | null) =>
  code === null ? `Monitor "${description}" script was ended by a signal` : `Monitor "${description}" script failed (exit ${code})`
export const notStartedSummary = (description: string) => `Monitor "${description}" could not start`
export const overrunSummary = (description: string) => `Monitor "${description}" was stopped: too many events`
export const OVERRUN_RESULT = 'It kept printing more lines than can be reported, window after window, so it was stopped. If the watch is still needed, start it again with a narrower filter (grep --line-buffered for the lines you would act on).'
