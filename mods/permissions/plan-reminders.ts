import { EXIT_PLAN_TOOL, PLAN_EXITED } from './plan-mode.js'

/** Between the full reminders: the model was given the whole of it earlier in the conversation. */
export const PLAN_REMINDER_SPARSE = `Plan mode is still on (the full instructions are earlier in this conversation): read and plan only, change nothing. When the plan is ready, call ${EXIT_PLAN_TOOL} to have it approved; do not ask for approval any other way.`

// Claude Code's cadence: a reminder at every sixth prompt of plan mode, in full every fifth time.
const PROMPTS_BETWEEN = 6
const FULL_EVERY = 5

/** What the model is told of plan mode at each prompt, and when: spec loop-and-sdk §4.4. */
export interface PlanReminders {
  /** The reminder for this prompt, if one is due. */
  atPrompt(inPlan: boolean): string | undefined
  /** The model was just told in full that plan mode is on (EnterPlanMode's result). */
  toldInFull(): void
  /** The model was told plan mode ended (an approved plan): no exit reminder is due. */
  toldEnded(): void
  /** A new conversation: nothing told yet. */
  reset(): void
}

/**
 * Plan mode is told in full as it starts, then briefly every sixth prompt, in full again every
 * fifth reminder, so a long plan session does not carry the whole text at every prompt. Once it
 * ends some other way than an approved plan, the next prompt says so. `full` is the whole
 * reminder, the application's own plan-mode workflow in it.
 */
export function planReminders(full: () => string): PlanReminders {
  // Plan mode was on when the model was last told of it, how many reminders it got since plan
  // mode started, and how many prompts since the last one.
  let told = false
  let given = 0
  let since = 0
  const remind = () => {
    since = 0
    return given++ % FULL_EVERY === 0 ? full() : PLAN_REMINDER_SPARSE
  }
  return {
    atPrompt(inPlan) {
      if (!inPlan) {
        const ended = told
        told = false
        return ended ? PLAN_EXITED : undefined
      }
      if (!told) {
        told = true
        given = 0
        return remind()
      }
      return ++since >= PROMPTS_BETWEEN ? remind() : undefined
    },
    toldInFull() {
      told = true
      given = 1
      since = 0
    },
    toldEnded() { told = false },
    reset() { told = false },
  }
}
