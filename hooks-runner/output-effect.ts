import { terminalSequenceAllowed } from './classify-stdout.js'
import { eventKeeps, eventSpec, type HookEventName } from './events.js'
import type { ResolvedHandler } from './hooks-config.js'
import type { HookOutput } from './output-schema.js'
import type { HookEffect } from './result-types.js'

/**
 * What a valid JSON output asks for on this event (spec §3.4–3.5): fields the event discards are
 * dropped, legacy PreToolUse `approve`/`block` map to allow/deny, and top-level `decision:"block"`
 * counts only where the event honours it.
 */
export function effectOfOutput(event: HookEventName, output: HookOutput): HookEffect {
  const effect: HookEffect = { specific: {} }
  if (output.terminalSequence !== undefined && terminalSequenceAllowed(output.terminalSequence)) effect.terminalSequence = output.terminalSequence
  if (!eventKeeps(event, 'fields')) return effect
  if (output.suppressOutput) effect.suppressOutput = true
  if (output.systemMessage !== undefined && eventKeeps(event, 'systemMessage')) effect.systemMessage = output.systemMessage
  if (output.continue === false && eventKeeps(event, 'continue')) effect.stop = { reason: output.stopReason }
  const { additionalContext, permissionDecision, permissionDecisionReason, ...specific } = output.specific
  effect.specific = specific
  if (additionalContext !== undefined && additionalContext !== '') effect.context = additionalContext

  if (event === 'PreToolUse' || event === 'PreModelSwitch') {
    const legacy = output.decision === 'approve' ? 'allow' : output.decision === 'block' ? 'deny' : undefined
    effect.permission = permissionDecision ?? legacy
    if (effect.permission === 'deny') effect.block = permissionDecisionReason ?? output.reason ?? 'Blocked by hook'
    if (effect.permission !== undefined) effect.permissionReason = permissionDecisionReason ?? output.reason
    // A deferred or denied call runs nothing, so neither its rewrite nor its context applies.
    if (effect.permission === 'defer' || effect.permission === 'deny') delete effect.specific.updatedInput
    if (effect.permission === 'defer') delete effect.context
  } else if (output.decision === 'block' && eventSpec(event).decisionBlock) {
    effect.block = emptyStopBlock(event, output) ? 'Blocked by hook' : output.reason ?? 'Blocked by hook'
  }
  return effect
}

/**
 * A Stop or SubagentStop `decision:"block"` with no reason to give the model. Claude Code still
 * blocks on it (its feedback then reads "Blocked by hook"), so a hook that relies on that keeps the
 * turn going here too; the runner warns, as the model is told nothing it can act on.
 */
export function emptyStopBlock(event: HookEventName, output: HookOutput): boolean {
  return (event === 'Stop' || event === 'SubagentStop') && output.decision === 'block' && !output.reason?.trim()
}

/**
 * What a prompt or agent hook's `{ok, reason, impossible}` verdict does (spec §3.9). An agent hook's
 * `ok:false` acts as a prompt hook's with `continueOnBlock: true`, and it has no `impossible`.
 * Where the reason goes back to the model, it says which condition failed, as Claude Code words it
 * (`[<prompt>]: reason`, `Agent hook condition was not met: reason`): a bare reason from one of
 * several such hooks does not tell the model which rule it broke.
 */
export function effectOfVerdict(event: HookEventName, h: ResolvedHandler, verdict: { ok: boolean; reason?: string; impossible?: boolean }): HookEffect {
  const effect: HookEffect = { specific: {} }
  if (verdict.ok) return effect
  const reason = verdict.reason ?? 'Blocked by hook'
  const agent = h.config.type === 'agent'
  const goOn = agent || (h.config.type === 'prompt' && h.config.continueOnBlock === true)
  const told = agent ? `Agent hook condition was not met: ${reason}` : h.config.type === 'prompt' ? `[${h.config.prompt}]: ${reason}` : reason
  switch (event) {
    case 'Stop':
    case 'SubagentStop':
      if (!(verdict.impossible && !agent)) effect.block = told
      break
    case 'PreToolUse':
      effect.block = told
      effect.permission = 'deny'
      effect.permissionReason = told
      if (!goOn) effect.stop = { reason }
      break
    case 'PostToolUse':
    case 'TeammateIdle':
      if (goOn) effect.block = told
      else effect.stop = { reason }
      break
    case 'PostToolBatch':
    case 'UserPromptSubmit':
    case 'UserPromptExpansion':
      effect.block = reason
      effect.stop = { reason }
      break
    case 'PermissionRequest':
    case 'PermissionDenied':
      break
    default:
      effect.block = told
  }
  return effect
}
