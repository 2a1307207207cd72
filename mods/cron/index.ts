import { existsSync } from 'node:fs'
import { z } from 'zod'
import { defineMod } from '../../core/mod/define.js'
import { registerTool } from '../_shared/register-tool.js'
import { jobsFileOf, readJobs, UnreadableJobsFile, writeJobs, type Job } from './jobs-file.js'
import { ownerLockOf, takeOwnerLock } from './owner-lock.js'
import { Scheduler, type CronClock } from './scheduler.js'
import { cronTools } from './tools.js'
import { clockTime, wakeupTool } from './wakeup-tool.js'
import { AUTONOMOUS_PROMPT, AUTONOMOUS_SENTINEL, AUTONOMOUS_TICK, loopPrompt } from './loop-prompts.js'
import { registerCommands } from '../_shared/register-command.js'
import { envTrue } from '../../core/env.js'
import { builtinOptions } from '../_shared/builtin-options.js'

/** How often a session that does not own the project's durable jobs tries to take them over. */
const OWNER_RETRY_MS = 60_000

const options = builtinOptions('cron', () => z.object({
  /** The clock jobs run on; `$.clock` unless given (a test passes one it moves by hand). */
  clock: z.custom<CronClock>((v) => typeof (v as CronClock)?.now === 'function' && typeof (v as CronClock)?.after === 'function').optional(),
  /** Offer CronCreate; Claude Code's restricted mode leaves it out, keeping CronList and CronDelete. */
  create: z.boolean().default(true),
}))

/**
 * Scheduled prompts: CronCreate, CronDelete and CronList. A job's prompt runs as a turn of the
 * session ($.prompt.submit, as the user's words, origin the cron mod) when it comes due and no
 * turn is running. Jobs live with the session; durable ones are also kept in the project's
 * .claude/scheduled_tasks.json, and the next session started there takes them up. `/loop`
 * repeats a prompt: on an interval through CronCreate, or paced by the model through
 * ScheduleWakeup, whose wake-ups are one-shots of the same scheduler. A one-prompt run (`-p`,
 * session.start's waitsForInput false) runs no job, as Claude Code's `-p` takes no scheduled
 * prompt; a pending wake-up holds it open ($.session.hold) until it fires or the loop stops.
 */
export default defineMod({
  name: 'cron',
  description: 'The CronCreate, CronDelete, CronList and ScheduleWakeup tools and /loop: prompts that run on a schedule',
  options,
  register(on, opts, $) {
    // Each session's scheduler, and its end: the hold on a one-prompt run let go, the timers
    // stopped, the jobs' save written, the project's jobs released if it owned them.
    const sessions = new Map<string, { scheduler: Scheduler; end(): Promise<void> }>()

    on('session.start', async ($, e, next) => {
      const clock = opts.clock ?? $.clock
      // CLAUDE_CODE_DISABLE_CRON: as in Claude Code, no cron tools, no /loop, and the project's
      // saved jobs do not run; ScheduleWakeup is still offered.
      const cronOff = envTrue($.env.get('CLAUDE_CODE_DISABLE_CRON'))
      const file = jobsFileOf(e.cwd)
      // Ids this session loaded or made: a save replaces those in the file and keeps the others' jobs.
      const mine = new Set<string>()
      // Each reason once: a file left broken would otherwise warn at every change to the jobs.
      let warned: string | undefined
      const warn = (why: string) => {
        if (why !== warned) $.log.warn(why)
        warned = why
      }
      // Settles with why the file could not be written (also logged), or undefined once it is.
      let saving: Promise<string | undefined> = Promise.resolve(undefined)
      const save = () => (saving = saving.then(async () => {
        const others = (await readJobs(file, () => {})).filter((j) => !mine.has(j.id))
        await writeJobs(file, [...others, ...scheduler.durable()])
        return undefined
      }).catch((err: unknown) => {
        const why = err instanceof UnreadableJobsFile ? err.message : `Could not write ${file}: ${(err as Error).message}`
        warn(why)
        return why
      }))
      // Not awaited (it settles as the job's turn starts); one the session ends before running is said on the debug log.
      const submit = (text: string, id: string) => {
        $.prompt.submit({ text, asUser: true }).catch((err: Error) => $.log.debug(`scheduled job ${id} did not run: ${err.message}`))
      }
      const run = (job: Job & { wakeup?: true }, last: boolean) => {
        // A wake-up's prompt is the /loop input again (a slash command, run as typed), or the placeholder of a /loop with no task.
        if (job.wakeup) return submit(job.prompt.trim() === AUTONOMOUS_SENTINEL ? AUTONOMOUS_TICK : job.prompt, job.id)
        const note = last ? `\n\n(Scheduled job ${job.id} has reached its age limit: this is its last run, and it is now deleted.)` : ''
        submit(job.prompt + note, job.id)
      }
      // A one-prompt run's hold while a wake-up is pending: its release.
      let hold: (() => void) | undefined
      const wakeup = (pending: boolean) => {
        if (pending) hold ??= $.session.hold({ reason: 'a ScheduleWakeup is pending' })
        else {
          hold?.()
          hold = undefined
        }
      }
      const scheduler = new Scheduler(clock, run, () => void save(), e.waitsForInput ? {} : { runsJobs: false, wakeup })
      const load = async () => {
        const loaded = await readJobs(file, (m) => $.log.warn(m)).catch((err: unknown) => {
          if (!(err instanceof UnreadableJobsFile)) throw err
          warn(err.message)
          return []
        })
        for (const job of loaded.filter((j) => !scheduler.has(j.id))) {
          mine.add(job.id)
          scheduler.add(job)
        }
      }
      // One session at a time runs the file's jobs: the one holding the lock beside it. Another
      // leaves them alone and tries the lock again every minute, taking the jobs up once it is free.
      let release: (() => void) | undefined
      let watch: { cancel(): void } | undefined
      const claim = (): boolean => {
        if (release) return true
        const taken = takeOwnerLock(ownerLockOf(file), e.sessionId)
        if (taken === undefined) return false
        release = taken === 'no-lock' ? () => {} : taken
        return true
      }
      const waitForOwner = () => {
        watch ??= clock.after(OWNER_RETRY_MS, () => {
          watch = undefined
          if (claim()) void load().catch((err: unknown) => $.log.warn(`${file}: ${(err as Error).message}`))
          else waitForOwner()
        })
      }
      sessions.set(e.sessionId, {
        scheduler,
        end: async () => {
          // A one-prompt run that stops waiting first (--max-wait-tasks) ends without that round: said, never dropped unseen.
          const left = hold ? scheduler.pendingWakeup() : undefined
          if (left?.nextRunAt !== undefined) $.log.warn(`the ScheduleWakeup due at ${clockTime(left.nextRunAt)} did not run: the run ended before it (a larger --max-wait-tasks waits for it)`)
          wakeup(false)
          scheduler.stop()
          await saving
          watch?.cancel()
          release?.()
        },
      })
      if (!cronOff && existsSync(file)) {
        if (claim()) await load()
        else waitForOwner()
      }
      const saved = async () => {
        for (const j of scheduler.durable()) mine.add(j.id)
        const why = await save()
        // The first durable job of a project makes this session the owner, unless one is already there.
        if (why === undefined && !claim()) waitForOwner()
        return why
      }
      const offered = cronTools(scheduler, () => clock.now(), saved).filter((t) => opts.create || t.name !== 'CronCreate')
      if (!cronOff) for (const tool of offered) await registerTool($, tool)
      await registerTool($, wakeupTool(scheduler, () => clock.now()))
      const r = await next(e)
      if (!cronOff) await registerCommands($, [{ name: 'loop', description: 'Run a prompt again and again: every [interval] (/loop 5m <prompt>), or paced by the model when no interval is given', argumentHint: '[interval] <prompt>', kind: 'prompt' }])
      return r
    })

    on('command.run', ($, e, next) => {
      if (e.command !== 'loop' || envTrue($.env.get('CLAUDE_CODE_DISABLE_CRON'))) return next(e)
      const args = e.args.trim()
      return { prompt: args === '' ? AUTONOMOUS_PROMPT : loopPrompt(args) }
    })

    // Subagents' turns run inside a turn of the session: only the session's own count.
    on('turn.start', ($, e, next) => {
      sessions.get($.session.id() as string)?.scheduler.setBusy(true)
      return next(e)
    })
    on('turn.complete', async ($, e, next) => {
      const r = await next(e)
      if (e.agentId === undefined) sessions.get($.session.id() as string)?.scheduler.setBusy(false)
      return r
    })

    on('session.end', async ($, e, next) => {
      await sessions.get(e.sessionId)?.end()
      sessions.delete(e.sessionId)
      return next(e)
    })

    return () => {
      for (const s of sessions.values()) void s.end()
      sessions.clear()
    }
  },
})
