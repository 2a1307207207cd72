import { STAGE, type On } from '../../core/bus/types.js'
import type { PermissionAskInput, PermissionAskResult } from '../../core/events/types.js'
import type { ModApi } from '../../core/mod/api.js'
import type { HookBridge } from './bridge.js'
import { hookOverRules } from './hook-order.js'
import { HOOK_BUDGET_MS, mcpServerField } from './tool-hooks.js'
import { describeError } from '../../core/errors.js'
import { USER_INPUT_RULE } from '../ask-user/name.js'

const permissionsApi = ($: ModApi) => $.capability.use('permissions')

/**
 * `tool.check` (before the permissions mod): a PreToolUse allow never loosens a deny or ask rule,
 * its ask forces the question and its defer holds the call. The auto-mode mod wraps this handler,
 * so it knows an ask was a hook's (and never approves it).
 *
 * `permission.ask` (beneath every mod, as settings hooks sit): the ask every tool.check handler
 * left standing — the auto mode's classifier neither allowed nor denied it — is about to reach the
 * approver. PermissionRequest hooks answer for the approver (spec §2.10): deny (with `message`;
 * `interrupt` also ends the turn), or allow — `updatedInput` is checked again against the rules,
 * and `updatedPermissions` go to the permissions mod as an approver's would. An ask still standing
 * goes on to the approver, and Notification `permission_prompt` tells the person.
 */
export function registerPermissionHooks(on: On, bridgeOf: ($: ModApi) => HookBridge | undefined): void {
  on('tool.check', async ($, e, next) => {
    const hook = e.verdict
    const verdict = await next(e)
    if (!bridgeOf($)) return verdict
    return hookOverRules(hook, verdict) ?? verdict
  }, { before: 'permissions', budgetMs: HOOK_BUDGET_MS })

  on('permission.ask', async ($, e, next) => {
    const asked = await next(e)
    const b = bridgeOf($)
    if (!b || asked.decision !== 'ask') return asked
    const answered = b.has('PermissionRequest') ? await permissionRequest($, b, e, next.signal) : undefined
    if (answered && answered.decision !== 'ask') return answered
    if (e.canAsk && b.has('Notification') && !/^(1|true)$/i.test($.env.get('CLAUDE_CODE_DISABLE_PERMISSION_PROMPT_NOTIFY_HOOKS') ?? '')) {
      b.background(b.fire('Notification', { message: `modloop needs your permission to use ${e.tool}`, title: 'Permission needed', notification_type: 'permission_prompt' }, { noPermissionMode: true }))
    }
    return answered ?? asked
  }, { stage: STAGE.last, budgetMs: HOOK_BUDGET_MS })

  // PermissionDenied fires only for the auto mode's refusals (spec §2.11); `retry` tells the model
  // it may try again, and the denial stands either way.
  on('permission.denied', async ($, e, next) => {
    const denied = await next(e)
    const b = bridgeOf($)
    if (e.rule !== AUTO_MODE_RULE || !b?.has('PermissionDenied')) return denied
    const r = await b.fire('PermissionDenied', { tool_name: e.tool, tool_input: e.input, tool_use_id: e.tool_use_id, reason: denied.reason }, b.agentOptions(e.agentId))
    return r.retry ? { reason: `${denied.reason}\n${RETRY_NOTE}` } : denied
  }, { budgetMs: HOOK_BUDGET_MS })
}

/** The rule the auto-mode mod names on its verdicts. */
const AUTO_MODE_RULE = '[mode:auto]'
const RETRY_NOTE = 'A PermissionDenied hook says you may retry this call.'

async function permissionRequest($: ModApi, b: HookBridge, e: PermissionAskInput, signal: AbortSignal | undefined): Promise<PermissionAskResult | undefined> {
  const r = await b.fire('PermissionRequest', {
    tool_name: e.tool, tool_input: e.input, ...(e.suggestions?.length ? { permission_suggestions: e.suggestions } : {}), ...(await mcpServerField($, e.tool)),
  }, { ...b.agentOptions(e.agentId), signal })
  const answer = r.permissionRequest
  if (!answer) return undefined
  if (answer.behavior === 'deny') {
    const reason = answer.message ?? `${r.hookName} hook denied this call`
    // `interrupt` ends the turn once the batch is answered, as an approver's interrupt does (Claude Code: aborted_tools).
    return { decision: 'deny', hook: r.hookName, reason, ...(answer.interrupt ? { interrupt: true as const } : {}) }
  }
  const api = permissionsApi($)
  for (const update of answer.updatedPermissions ?? []) {
    if (!api) {
      b.notice(`${r.hookName} hook: updatedPermissions were not applied: no permissions mod is loaded`, 'warning')
      break
    }
    try {
      await api.persistUpdate(update)
    } catch (err) {
      b.notice(`${r.hookName} hook: an updatedPermissions entry was not applied: ${describeError(err)}`, 'warning')
    }
  }
  if (!answer.updatedInput) return { decision: 'allow', hook: r.hookName }
  // The substituted input faces the deny and ask rules again (spec §2.10).
  const again: { decision: string; reason?: string; rule?: string } = api ? await api.check(e.tool, answer.updatedInput) : { decision: 'allow' }
  if (again.decision === 'deny') return { decision: 'deny', hook: r.hookName, reason: again.reason ?? `the input ${r.hookName} hook substituted is denied${again.rule ? ` by the rule ${again.rule}` : ''}` }
  // AskUserQuestion's own ask is for the answers, which this input carries now.
  if (again.decision === 'ask' && again.rule && again.rule !== USER_INPUT_RULE) return { decision: 'ask', hook: r.hookName, rule: again.rule, ...(again.reason ? { reason: again.reason } : {}), updatedInput: answer.updatedInput }
  return { decision: 'allow', hook: r.hookName, updatedInput: answer.updatedInput }
}
