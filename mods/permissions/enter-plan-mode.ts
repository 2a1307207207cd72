import { z } from 'zod'
import type { ModApi } from '../../core/mod/api.js'
import { registerTool } from '../_shared/register-tool.js'
import { EXIT_PLAN_TOOL } from './plan-mode.js'
import type { Mode } from './types.js'

export const ENTER_PLAN_TOOL = 'EnterPlanMode'

// ASCII, as every tool schema of the default distribution (test/cli/lean-start.test.ts says why).
const DESCRIPTION = `Switches this session to plan mode, so that you explore the code and agree an approach with the user before changing anything.

Use it before non-trivial implementation work: a new feature, a change to existing behaviour, work across several files, a task with several reasonable approaches or unclear requirements, or one where the user's preferences decide the approach.
Skip it for small, clear changes (a typo, a one-line fix, a change the user spelled out) and for pure research questions.

In plan mode you read and search but change nothing; you may ask the user questions to settle requirements. When the plan is ready, call ${EXIT_PLAN_TOOL} to have the user approve it.`

const RESULT = `Plan mode is on. Explore the code, weigh the approaches and design the change; do not edit or write files yet.
When the plan is ready, call ${EXIT_PLAN_TOOL} to ask the user to approve it.`

/** What the tool needs of the mode's owner. */
export interface PlanModeEntry {
  mode(): Mode
  setMode(mode: Mode): void
  /** The model is being told plan mode is on: once it ends, the next prompt says so. */
  reminded(): void
  /** The full plan-mode reminder, with the application's own workflow if it gave one. */
  reminder(): string
}

/**
 * EnterPlanMode (spec loop-and-sdk §7.2): the model switches the session to plan mode itself. It
 * needs no approval; the plan-mode reminder follows its result at once, not only at the next
 * prompt (spec §4.1: a conversation message). Offered only where an approver can later approve
 * the plan, and never to subagents (§7.3).
 */
export function registerEnterPlanMode($: ModApi, owner: PlanModeEntry): Promise<{ tool: string }> {
  return registerTool($, {
    name: ENTER_PLAN_TOOL, description: DESCRIPTION, input: () => z.strictObject({}),
    // It changes the session's mode, so it does not run beside other calls.
    isReadOnly: false,
    traits: { mainThreadOnly: true },
    call: () => {
      if (owner.mode() !== 'plan') owner.setMode('plan')
      owner.reminded()
      return { result: { message: RESULT }, text: RESULT, context: [owner.reminder()] }
    },
  })
}
