import { z } from 'zod'
import type { ToolOutput } from '../../core/tools/tool.js'
import { failure, type BuiltinTool } from '../_shared/register-tool.js'
import type { Job } from './jobs-file.js'
import type { Scheduler, ScheduledJob } from './scheduler.js'
import { cronError, formatWhen, humanSchedule, RECURRING_MAX_AGE_MS } from './schedule.js'
import { builtinInput } from '../_shared/builtin-input.js'

const CREATE_DESCRIPTION = `Schedules a prompt to run later as a turn of this session: once (a reminder) or again and again.

The schedule is a 5-field cron expression (minute hour day-of-month month day-of-week) read in the user's local time, so "0 9 * * *" is 9 in the morning where the user is.
- Once: set recurring to false and pin the minute, hour, day and month ("15 16 <day> <month> *" for 4:15pm that day). It runs at the first match and is then deleted.
- Repeating (recurring, the default): "*/10 * * * *" every ten minutes, "20 * * * *" hourly, "0 8 * * 1-5" on weekday mornings.

When the user's time is loose ("around nine", "hourly"), choose a minute other than :00 or :30, such as "3 9 * * *" or "41 * * * *": many schedules land on the round minutes at once. Keep :00 or :30 for a time the user named exactly.

A job runs only while the session is idle: one that comes due during a turn waits for it to end. Each job is moved by a small offset of its own (a repeating job runs up to half its period late, at most 30 minutes; a one-shot on :00 or :30 up to 90 seconds early); this tool's answer and CronList give the real next run, so quote that time to the user rather than the cron minute.

Repeating jobs last 30 days: they run one last time, told it is their last, and are deleted. Mention that limit when you set one up.

durable: false (the default) keeps the job in this session only; it ends with the session. durable: true also writes it to .claude/scheduled_tasks.json, and the next session started in this project takes it up again. Use it only when the user wants the job to outlast this session.

To react the moment a file or command output changes, watch it instead: a schedule only looks at fixed times.

The answer holds the job's id, for CronDelete.`

const createInput = builtinInput('CronCreate', () => z.object({
  cron: z.string().describe('When to run, as 5 cron fields in local time: minute hour day-of-month month day-of-week (e.g. "*/15 * * * *" every quarter hour, "45 9 3 7 *" on July 3 at 9:45am)'),
  prompt: z.string().describe('The prompt that runs as a turn each time the job comes due'),
  recurring: z.boolean().optional().describe('true (default): run at every match until deleted or 30 days have passed. false: run at the next match only, then delete the job'),
  durable: z.boolean().optional().describe('true: also save the job to .claude/scheduled_tasks.json so later sessions in this project take it up. false (default): this session only'),
}).strict())

const deleteInput = builtinInput('CronDelete', () => z.object({ id: z.string().describe('The id CronCreate answered with') }).strict())
const listInput = builtinInput('CronList', () => z.object({}).strict())

/** A fresh job id: 8 hex digits, as Claude Code's. node:crypto is loaded at the first, not at start. */
const newId = async () => (await import('node:crypto')).randomBytes(4).toString('hex')

/** What CronCreate answers, in Claude Code's words: kind, id, schedule, next run, where it is kept, how it ends. */
function createdText(job: ScheduledJob, unsaved: string | undefined): string {
  const kind = job.recurring ? 'recurring job' : 'one-shot task'
  const next = job.nextRunAt === undefined ? 'never' : formatWhen(job.nextRunAt)
  const kept = !job.durable ? 'Session-only (not written to disk, dies when Claude exits).'
    : unsaved ? `${unsaved}. It runs in this session; the next change to the scheduled jobs tries the file again.` : 'Persisted to .claude/scheduled_tasks.json.'
  const ends = job.recurring ? 'Auto-expires after 30 days. Use CronDelete to cancel sooner.' : 'It will fire once then auto-delete.'
  return `Scheduled ${kind} ${job.id} (${humanSchedule(job.cron)}). Next run: ${next}. ${kept} ${ends}`
}

/** One CronList row: id, schedule, kind, where it is kept, next run, prompt. */
function listRow(job: ScheduledJob): string {
  const next = job.nextRunAt === undefined ? 'no run to come' : `next run ${formatWhen(job.nextRunAt)}`
  return `${job.id} - ${humanSchedule(job.cron)} (${job.recurring ? 'recurring' : 'one-shot'})${job.durable ? '' : ' [session-only]'}, ${next}: ${job.prompt}`
}

/** CronCreate, CronDelete and CronList over one session's scheduler; `saved` writes the durable jobs, answering why it could not. */
export function cronTools(scheduler: Scheduler, now: () => number, saved: () => Promise<string | undefined>): BuiltinTool<z.ZodType>[] {
  const create: BuiltinTool<ReturnType<typeof createInput>> = {
    name: 'CronCreate', description: CREATE_DESCRIPTION, input: createInput, isReadOnly: false,
    async call(input): Promise<ToolOutput> {
      const bad = cronError(input.cron, now())
      if (bad) return failure(bad)
      const recurring = input.recurring !== false
      const job: Job = {
        id: await newId(), cron: input.cron.trim(), prompt: input.prompt, createdAt: now(), recurring, durable: input.durable === true,
        ...(recurring ? { maxAgeMs: RECURRING_MAX_AGE_MS } : {}),
      }
      const scheduled = scheduler.add(job)
      const unsaved = job.durable ? await saved() : undefined
      const result = { id: job.id, humanSchedule: humanSchedule(job.cron), recurring, durable: job.durable, nextFireAt: scheduled.nextRunAt, ...(recurring ? { maxAgeMs: RECURRING_MAX_AGE_MS } : {}) }
      return { result, text: createdText(scheduled, unsaved) }
    },
  }
  const remove: BuiltinTool<ReturnType<typeof deleteInput>> = {
    name: 'CronDelete', description: 'Deletes a job CronCreate scheduled, by its id: from this session, and from .claude/scheduled_tasks.json when it was durable.', input: deleteInput, isReadOnly: false,
    async call(input): Promise<ToolOutput> {
      const job = scheduler.remove(input.id)
      if (!job) return failure(`No scheduled job with id '${input.id}'`)
      const unsaved = job.durable ? await saved() : undefined
      return { result: { id: job.id }, text: `Cancelled job ${job.id}.${unsaved ? ` ${unsaved}: a later session in this project may still run it.` : ''}` }
    },
  }
  const list: BuiltinTool<ReturnType<typeof listInput>> = {
    name: 'CronList', description: 'Lists the jobs CronCreate scheduled, those of this session and the durable ones of .claude/scheduled_tasks.json, each with its id, schedule and next run.', input: listInput, isReadOnly: true,
    call(): ToolOutput {
      const jobs = scheduler.list()
      const result = { jobs: jobs.map((j) => ({ id: j.id, cron: j.cron, humanSchedule: humanSchedule(j.cron), prompt: j.prompt, recurring: j.recurring, durable: j.durable, nextFireAt: j.nextRunAt })) }
      return { result, text: jobs.length === 0 ? 'No scheduled jobs.' : jobs.map(listRow).join('\n') }
    },
  }
  return [create, remove, list] as unknown as BuiltinTool<z.ZodType>[]
}
