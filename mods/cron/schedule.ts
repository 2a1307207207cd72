import { createRequire } from 'node:module'
import type { CronExpression, ParserOptions } from 'cron-parser'

type Parse = (expression: string, options?: ParserOptions) => CronExpression
let parse: Parse | undefined
// cron-parser brings luxon with it: loaded at the first schedule, not when the mod is.
function parser(): Parse {
  return (parse ??= (createRequire(import.meta.url)('cron-parser') as { parseExpression: Parse }).parseExpression)
}

/** The most a recurring job runs late (half its period, at most this), and a one-shot on :00/:30 early. */
const RECURRING_LATE_CAP_MS = 30 * 60_000
const ONE_SHOT_EARLY_MS = 90_000
/** How long a recurring job lives: it runs one last time past this, then is deleted. */
export const RECURRING_MAX_AGE_MS = 30 * 24 * 60 * 60_000
/** The life of a stored job that names none (an older file's), as Claude Code reads one: a week. */
const UNSTATED_MAX_AGE_MS = 7 * 24 * 60 * 60_000

/** How long a recurring job lives: what it says, never past 30 days. */
export const maxAgeOf = (job: { maxAgeMs?: number }) => Math.min(job.maxAgeMs || UNSTATED_MAX_AGE_MS, RECURRING_MAX_AGE_MS)

/**
 * Why `cron` cannot be scheduled, or undefined when it can: 5 fields of numbers, `*`, ranges,
 * steps and lists (no names or `L`/`W`/`#`, which Claude Code's schedules do not take either), with
 * a date to come within a year.
 */
export function cronError(cron: string, from: number): string | undefined {
  const fields = cron.trim().split(/\s+/)
  const bad = `Invalid cron expression '${cron}'. Expected 5 fields: M H DoM Mon DoW.`
  if (fields.length !== 5 || fields.some((f) => !/^[\d*/,-]+$/.test(f))) return bad
  const never = `Cron expression '${cron}' does not match any calendar date in the next year.`
  let next: number
  try {
    next = parser()(fields.join(' '), { currentDate: new Date(from) }).next().getTime()
  } catch (err) {
    // cron-parser refuses a day the months named never have (Feb 30) with this message.
    return /explicit day of month/i.test((err as Error).message) ? never : bad
  }
  return next - from > 366 * 24 * 60 * 60_000 ? never : undefined
}

/** The first time after `from` (ms) that `cron` matches, in this machine's local time; undefined if it never does. */
export function nextMatch(cron: string, from: number): number | undefined {
  try {
    return parser()(cron.trim(), { currentDate: new Date(from) }).next().getTime()
  } catch {
    return undefined
  }
}

/**
 * A job's share of its spread, the same on every run: taken from its id (8 hex digits), so jobs
 * made at the same minute by many sessions do not all run at the same instant.
 */
function spread(id: string): number {
  const n = parseInt(id.slice(0, 8), 16) / 2 ** 32
  return Number.isFinite(n) ? n : 0
}

/**
 * When a job runs next after `from`: a recurring job at its next match plus its fixed lateness
 * (up to half its period, at most 30 minutes); a one-shot at its match, or up to 90 s before it
 * when that falls on :00 or :30 (never before `from`).
 */
export function nextRun(job: { id: string; cron: string; recurring: boolean }, from: number): number | undefined {
  const at = nextMatch(job.cron, from)
  if (at === undefined) return undefined
  if (!job.recurring) {
    if (new Date(at).getMinutes() % 30 !== 0) return at
    return Math.max(at - spread(job.id) * ONE_SHOT_EARLY_MS, from)
  }
  const after = nextMatch(job.cron, at)
  if (after === undefined) return at
  return at + Math.min(spread(job.id) * 0.5 * (after - at), RECURRING_LATE_CAP_MS)
}

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

/** A clock time as people read it: 9:05am, 2:30pm. */
function clockTime(hours: number, minutes: number): string {
  return `${hours % 12 === 0 ? 12 : hours % 12}:${String(minutes).padStart(2, '0')}${hours < 12 ? 'am' : 'pm'}`
}

/** `at` (ms) to the minute, local time: "Dec 6 9:20am". */
export function formatWhen(at: number): string {
  const d = new Date(Math.round(at / 60_000) * 60_000)
  return `${MONTHS[d.getMonth()]} ${d.getDate()} ${clockTime(d.getHours(), d.getMinutes())}`
}

/**
 * The schedule in words for the common shapes (every N minutes, hourly, daily, one weekday,
 * weekdays); any other expression is shown as written.
 */
export function humanSchedule(cron: string): string {
  const fields = cron.trim().split(/\s+/)
  if (fields.length !== 5) return cron
  const [min, hour, dom, mon, dow] = fields as [string, string, string, string, string]
  const num = (s: string) => (/^\d+$/.test(s) ? parseInt(s, 10) : undefined)
  const step = (s: string) => (/^\*\/\d+$/.test(s) ? parseInt(s.slice(2), 10) : undefined)
  const everyDay = dom === '*' && mon === '*'
  const pastHour = (m: number) => (m === 0 ? '' : ` at :${String(m).padStart(2, '0')}`)
  if (hour === '*' && everyDay && dow === '*') {
    if (min === '*') return 'Every minute'
    const n = step(min)
    if (n !== undefined) return n === 1 ? 'Every minute' : `Every ${n} minutes`
    const m = num(min)
    if (m !== undefined) return `Every hour${pastHour(m)}`
  }
  const m = num(min)
  const hours = step(hour)
  if (m !== undefined && hours !== undefined && everyDay && dow === '*') return hours === 1 ? `Every hour${pastHour(m)}` : `Every ${hours} hours${pastHour(m)}`
  const h = num(hour)
  if (m === undefined || h === undefined || !everyDay) return cron
  const at = clockTime(h, m).replace(/(am|pm)$/, (s) => ` ${s.toUpperCase()}`)
  if (dow === '*') return `Every day at ${at}`
  if (/^\d$/.test(dow)) return `Every ${DAYS[parseInt(dow, 10) % 7]} at ${at}`
  if (dow === '1-5') return `Weekdays at ${at}`
  return cron
}
