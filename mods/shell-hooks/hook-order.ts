import type { ProposedVerdict, ToolCheckResult } from '../../core/events/types.js'

/**
 * A PreToolUse hook's allow, ask or defer against the rules' verdict (spec §3.3; a hook's deny
 * never gets this far, but a proposed deny stands): defer holds the call unless a rule denies it; a rule's deny stands; the
 * hook's ask forces the question; its allow never loosens an ask rule (a bare ask is only the
 * mode, which it does settle). Undefined: the hook said nothing, the verdict goes on as it is.
 */
export function hookOverRules(proposed: ProposedVerdict | undefined, verdict: ToolCheckResult): ToolCheckResult | undefined {
  if (!proposed) return undefined
  const hook = { ...proposed, hook: proposed.hook ?? 'a tool.call handler' }
  if (hook.decision === 'deny') return { decision: 'deny', hook: hook.hook, ...(hook.reason ? { reason: hook.reason } : {}) }
  if (hook.decision === 'defer' && verdict.decision !== 'deny') return { decision: 'defer', hook: hook.hook, ...(hook.reason ? { reason: hook.reason } : {}) }
  if (verdict.decision === 'deny' || verdict.decision === 'defer') return verdict
  if (hook.decision === 'ask') return { decision: 'ask', hook: hook.hook, reason: hook.reason ?? `${hook.hook} hook asks before this call` }
  return verdict.decision === 'ask' && verdict.rule ? verdict : { decision: 'allow', hook: hook.hook }
}
