import type { PermissionResult } from '../../core/tools/pipeline.js'
import type { ModApi } from '../../core/mod/api.js'
import { Chooser } from './chooser.js'
import { toolTitle } from './tool-view.js'
import { alwaysRules, rulesText, type AlwaysRule } from '../permissions/always-rule.js'
import type { PermissionUpdate } from '../../core/events/types.js'

export { rulesText }

/** The `permissions` capability, when a mod provides it. */
export const permissionsApi = ($: ModApi | undefined) => $?.capability.use('permissions')

type Pick = 'once' | 'always' | 'deny' | 'cancel'

/**
 * A permission ask as a chooser: allow once, allow always (the rule goes to the project's
 * `.claude/settings.local.json` through the permissions mod), or deny with a reason.
 */
export function permissionChooser(
  tool: string, input: Record<string, unknown>, reason: string | undefined,
  answer: (result: PermissionResult, pick: Pick, rules: AlwaysRule[]) => void,
  suggestions?: readonly PermissionUpdate[],
  cwd?: string,
): Chooser<Pick> {
  const rule = alwaysRules(tool, input, suggestions)
  const title = [`Allow ${toolTitle(tool, input, cwd)}?`, ...(reason ? [reason] : [])]
  return new Chooser<Pick>(title, [
    { label: 'Yes, once', value: 'once' },
    { label: `Yes, always: allow ${rulesText(rule)} (.claude/settings.local.json)`, value: 'always' },
    { label: 'No, and tell modloop why', value: 'deny', withText: 'reason' },
  ], ({ value, text }) => {
    if (value === 'once' || value === 'always') return answer({ behavior: 'allow' }, value, rule)
    const why = text?.trim()
    const message = value === 'cancel'
      ? `The user interrupted the ${tool} call and did not allow it.`
      : `The user denied this ${tool} call${why ? `: ${why}` : '.'}`
    answer({ behavior: 'deny', message }, value, rule)
  }, 'cancel')
}

type PlanPick = 'acceptEdits' | 'default' | 'keep' | 'cancel'

/**
 * ExitPlanMode's ask: leave plan mode for acceptEdits or default (the permissions mod switches
 * the mode as the approval's `setMode` update says), or keep planning with what to change. The
 * plan itself is printed above the question (it may be long), as Claude Code shows it.
 */
export function planChooser(answer: (result: PermissionResult, pick: PlanPick) => void): Chooser<PlanPick> {
  const leave = (mode: 'acceptEdits' | 'default'): PermissionResult => ({ behavior: 'allow', updatedPermissions: [{ type: 'setMode', mode, destination: 'session' }] })
  return new Chooser<PlanPick>(['Ready to code? The plan is above.', 'Would you like to proceed?'], [
    { label: 'Yes, and auto-accept edits', value: 'acceptEdits' },
    { label: 'Yes, and manually approve edits', value: 'default' },
    { label: 'No, keep planning (and tell modloop what to change)', value: 'keep', withText: 'what to change' },
  ], ({ value, text }) => {
    if (value === 'acceptEdits' || value === 'default') return answer(leave(value), value)
    const why = text?.trim()
    const message = value === 'cancel'
      ? 'The user interrupted the ExitPlanMode call: plan mode goes on.'
      : `The user did not approve the plan and wants to keep planning${why ? `: ${why}` : '.'}`
    answer({ behavior: 'deny', message }, value)
  }, 'cancel')
}

/** The plan ExitPlanMode hands in, as the terminal prints it above the question. */
export function planText(input: Record<string, unknown>): string {
  const plan = typeof input.plan === 'string' ? input.plan.trim() : ''
  return plan ? `Plan:\n${plan.split('\n').map((l) => `  ${l}`).join('\n')}` : 'The plan is ready (no plan text was given).'
}
