import { z } from 'zod'
import type { ModApi } from '../../core/mod/api.js'
import { failure, registerTool } from '../_shared/register-tool.js'
import type { Mode } from './types.js'
import { builtinInput } from '../_shared/builtin-input.js'

export const EXIT_PLAN_TOOL = 'ExitPlanMode'

// The reminder's two fixed parts: what plan mode forbids, and how a plan is handed in.
const PLAN_PREAMBLE = [
  'Plan mode is on. Research and plan only: read, search and think, but change nothing:',
  'no edits, no writes, no commands that alter files, settings or systems; such calls need the user\'s approval and are not what plan mode is for.',
].join(' ')
const PLAN_FOOTER = [
  `When the plan is ready, call ${EXIT_PLAN_TOOL} with the whole plan as its \`plan\` argument: that asks the user to approve it, and plan mode ends once they do.`,
  'Do not ask for approval of the plan any other way. If the approval is refused, stay in plan mode and revise the plan as told.',
].join(' ')

/** Beside each prompt while plan mode is on (spec loop-and-sdk §4.1: a conversation message, not a system edit). */
export const PLAN_REMINDER = `${PLAN_PREAMBLE} ${PLAN_FOOTER}`

/**
 * The full reminder with an application's own workflow for plan mode (the Agent SDK's
 * `planModeInstructions`) between what plan mode forbids and how the plan is handed in, which
 * stay, as Claude Code keeps its preamble and ExitPlanMode footer around it.
 */
export function planReminder(instructions?: string): string {
  const own = instructions?.trim()
  return own ? `${PLAN_PREAMBLE}\n\n${own}\n\n${PLAN_FOOTER}` : PLAN_REMINDER
}

/** Beside the next prompt once plan mode ended some other way than an approved ExitPlanMode (Shift+Tab, setPermissionMode). */
export const PLAN_EXITED = '## Exited Plan Mode\n\nYou have exited plan mode. You can now make edits, run tools, and take actions.'

export const NOT_IN_PLAN_MODE = `You are not in plan mode, so there is nothing to exit. If your plan was already approved, continue with implementation.`

/** Why the call goes to the approver (the approver's decisionReason, and part of the denial when there is none). */
export const APPROVAL_REASON = 'leaving plan mode needs the user to approve the plan'

// ASCII, as every tool schema of the default distribution (test/cli/lean-start.test.ts says why).
const DESCRIPTION = `Use this tool in plan mode once the plan is finished, to ask the user to approve it.

- Pass the whole plan, in markdown, as the \`plan\` argument: it is what the user reads and approves.
- Approved, plan mode ends and you can make changes; refused, you stay in plan mode and revise the plan as told.
- Use it only to plan changes to code. For research (searching, reading, explaining the codebase), just answer.
- Make the plan complete and unambiguous first. Do not ask "Is this plan okay?" in text: this tool is how a plan is approved.`

const exitPlanInput = builtinInput('ExitPlanMode', () => z.looseObject({
  plan: z.string().optional().describe('The plan to approve, in markdown: concise, but detailed enough to carry out'),
  allowedPrompts: z.array(z.object({
    tool: z.string().describe('The tool this prompt applies to (Bash)'),
    prompt: z.string().describe('Semantic description of the action, e.g. "run tests"'),
  })).optional().describe('Deprecated: no longer used.'),
}))

/** What the tool needs of the mode's owner. */
export interface PlanModeOwner {
  mode(): Mode
  /** The mode plan mode was entered from: where an approval with no mode of its own goes back to. */
  beforePlan(): Mode
  setMode(mode: Mode): void
  /** The model has been told the plan ended: no exit reminder is due at the next prompt. */
  told(): void
  /** Whether this call was checked in plan mode (and so went to the approver); answers once. */
  askedInPlan(toolUseId: string): boolean
}

/**
 * ExitPlanMode (spec loop-and-sdk §7.2): the model hands in its plan for approval. The permission
 * check sends it to the approver in plan mode (evaluate.ts); once approved, the call ends plan mode —
 * unless the approver already chose a mode (a `setMode` update, e.g. "Yes, and auto-accept edits"),
 * it goes back to the mode plan mode was entered from. It acts on the main conversation only.
 */
export function registerExitPlanMode($: ModApi, owner: PlanModeOwner): Promise<{ tool: string }> {
  return registerTool($, {
    name: EXIT_PLAN_TOOL, description: DESCRIPTION, input: exitPlanInput, isReadOnly: false,
    // Only the user can approve a plan: the approver is told so (the SDK's requires_user_interaction).
    traits: { mainThreadOnly: true, asksUser: true },
    call: ({ plan }, ctx) => {
      // Approved: the approver may have picked the mode already; a call checked outside plan mode was never asked.
      const approved = owner.askedInPlan(ctx.toolUseId)
      if (!approved) return failure(NOT_IN_PLAN_MODE)
      if (owner.mode() === 'plan') owner.setMode(owner.beforePlan())
      owner.told()
      const mode = owner.mode()
      const text = plan?.trim()
        ? `User has approved your plan. You can now start coding. Start with updating your todo list if applicable.\n\nPlan mode has ended; the permission mode is now ${mode}.\n\n## Approved Plan:\n${plan}`
        : `User has approved exiting plan mode. You can now proceed. The permission mode is now ${mode}.`
      return { result: { plan: plan ?? null, mode }, text }
    },
  })
}
