import type { PermissionResult } from '../../core/tools/pipeline.js'
import type { ModApi } from '../../core/mod/api.js'
import { Chooser } from './chooser.js'
import { toolTitle } from './tool-view.js'
import { alwaysRule, ruleText } from '../permissions/always-rule.js'

export { alwaysRule, ruleText }

/** The `permissions` capability, when a mod provides it. */
export const permissionsApi = ($: ModApi | undefined) => $?.capability.use('permissions')

type Pick = 'once' | 'always' | 'deny' | 'cancel'

/**
 * A permission ask as a chooser: allow once, allow always (the rule goes to the project's
 * `.claude/settings.local.json` through the permissions mod), or deny with a reason.
 */
export function permissionChooser(
  tool: string, input: Record<string, unknown>, reason: string | undefined,
  answer: (result: PermissionResult, pick: Pick, rule: { toolName: string; ruleContent?: string }) => void,
): Chooser<Pick> {
  const rule = alwaysRule(tool, input)
  const title = [`Allow ${toolTitle(tool, input)}?`, ...(reason ? [reason] : [])]
  return new Chooser<Pick>(title, [
    { label: 'Yes, once', value: 'once' },
    { label: `Yes, always: allow ${ruleText(rule)} (.claude/settings.local.json)`, value: 'always' },
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
