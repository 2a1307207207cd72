import { z } from 'zod'
import type { ToolOutput } from '../../core/tools/tool.js'
import { failure, type BuiltinTool } from '../_shared/register-tool.js'
import type { Scheduler } from './scheduler.js'
import { builtinInput } from '../_shared/builtin-input.js'

export const MIN_DELAY_S = 60
export const MAX_DELAY_S = 3600

const DESCRIPTION = `Sets when a self-paced /loop runs its next round: the user ran /loop with no interval, so you choose the pace.

Each round, pass the loop's input back as \`prompt\`, word for word and starting with \`/loop \`, so the next round runs the same task. A /loop with no task uses the placeholder \`<<autonomous-loop-dynamic>>\` as \`prompt\` instead; it is replaced by the upkeep instructions when the wake-up fires.

When the work is done, pass \`stop: true\` alone: that cancels the wake-up waiting to fire, and no more follow. A fixed-interval /loop is a CronCreate job; this tool does not stop it (CronDelete does).

Choosing delaySeconds: it is kept between 60 and 3600 seconds. Requests are cached for about five minutes, so a wait under 270 seconds is cheap, and one past 300 seconds pays for the whole conversation again: wait a little under five minutes when something changes quickly (a CI run, a deploy), and 20 to 30 minutes when nothing in particular is expected. Do not poll work this session runs in the background: its report wakes you when it ends, so only set a long fallback for it.

\`reason\` is one specific sentence on the delay you chose ("CI takes about 8 minutes"); the user sees it. \`noop\` is true when this round found nothing new and changed nothing, false when it did something.`

const input = builtinInput('ScheduleWakeup', () => z.object({
  delaySeconds: z.number().optional().describe('How many seconds from now the next round runs; kept between 60 and 3600. Needed unless stop is true'),
  reason: z.string().optional().describe('One specific sentence on why this delay; shown to the user. Needed unless stop is true'),
  prompt: z.string().optional().describe('What runs when the wake-up fires: the /loop input, word for word, or <<autonomous-loop-dynamic>> for a /loop with no task. Needed unless stop is true'),
  stop: z.boolean().optional().describe('true ends the loop now: the pending wake-up is cancelled and the other fields are ignored'),
  noop: z.boolean().optional().describe('true: this round changed nothing worth keeping. false: it did something (an edit, a finding). Needed unless stop is true'),
}).strict())

/** "HH:MM:SS", local time. */
export const clockTime = (ms: number) => new Date(ms).toTimeString().slice(0, 8)

/**
 * When a wake-up asked for `delayS` seconds from `now` fires: the delay kept within [60, 3600],
 * then moved to a whole minute, the next one, or the one before when the next is past the hour.
 */
export function wakeupTime(now: number, delayS: number): { at: number; delayS: number } {
  const kept = Math.min(MAX_DELAY_S, Math.max(MIN_DELAY_S, Math.round(delayS)))
  const target = now + kept * 1000
  const up = Math.ceil(target / 60_000) * 60_000
  return { at: up - now > MAX_DELAY_S * 1000 ? Math.floor(target / 60_000) * 60_000 : up, delayS: kept }
}

const newId = async () => `wakeup-${(await import('node:crypto')).randomBytes(4).toString('hex')}`

/** ScheduleWakeup over one session's scheduler: the loop's next round is a one-shot of it. */
export function wakeupTool(scheduler: Scheduler, now: () => number): BuiltinTool<z.ZodType> {
  const tool: BuiltinTool<ReturnType<typeof input>> = {
    name: 'ScheduleWakeup', description: DESCRIPTION, input, isReadOnly: true,
    async call(i): Promise<ToolOutput> {
      if (i.stop === true) {
        const cancelled = scheduler.cancelWakeups()
        const what = cancelled > 0 ? `the pending wake-up was cancelled and no other will fire` : `no wake-up was pending`
        return { result: { stopped: true, cancelled }, text: `The self-paced loop has ended: ${what}. A fixed-interval /loop is a CronCreate job and goes on until CronDelete cancels it. Now tell the user, as plain text, how the loop ended, and end the turn.` }
      }
      if (i.delaySeconds === undefined || i.prompt === undefined || i.prompt.trim() === '') return failure('ScheduleWakeup needs delaySeconds and prompt, or stop: true')
      const t = now()
      const { at, delayS } = wakeupTime(t, i.delaySeconds)
      scheduler.cancelWakeups()
      scheduler.addWakeup({ id: await newId(), cron: '', prompt: i.prompt, createdAt: t, recurring: false, durable: false }, at)
      const clamped = delayS !== i.delaySeconds ? ` (${i.delaySeconds}s was outside 60-3600s: kept at ${delayS}s)` : ''
      const text = `The loop's next round runs at ${clockTime(at)}, in ${Math.round((at - t) / 1000)}s${clamped}. Give the user any update now, as plain text, then end the turn: the round starts on its own when the wake-up fires.`
      return { result: { scheduledFor: at, delaySeconds: delayS, ...(i.reason ? { reason: i.reason } : {}) }, text }
    },
  }
  return tool as unknown as BuiltinTool<z.ZodType>
}
