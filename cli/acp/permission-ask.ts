import type { AgentContext, PermissionOption } from '@agentclientprotocol/sdk'
import type { CanUseTool, PermissionResult } from '../../core/tools/pipeline.js'
import { alwaysRules, rulesText, type AlwaysRule } from '../../mods/permissions/always-rule.js'
import type { PermissionsAccess } from './permissions-api.js'
import { toolInfo } from './tool-info.js'
import { describeError } from '../../core/errors.js'
import { detailed } from './editor.js'
import { askQuestions } from './question-ask.js'
import { ASK_USER_TOOL } from '../../mods/ask-user/name.js'

export interface PermissionAskContext {
  client: AgentContext
  sessionId: string
  permissions(): PermissionsAccess | undefined
  /** The editor is about to be asked about this call. */
  asking(toolUseId: string, tool: string, input: Record<string, unknown>): void
  /** The call was allowed: it runs now. */
  allowed(toolUseId: string): void
  /** A line for the editor's log (the agent's stderr). */
  log(line: string): void
}

/**
 * canUseTool as an ACP `session/request_permission`: allow once, allow always (the rule is saved
 * to the project's `.claude/settings.local.json` through the permissions mod, as the terminal
 * saves it), or reject; ExitPlanMode offers the modes to leave plan mode for instead, and
 * AskUserQuestion asks its questions (question-ask.ts). An ask the
 * editor cancels — or a cancelled turn — denies and ends the turn.
 */
export function askEditor(ctx: PermissionAskContext): CanUseTool {
  return async (tool, input, o) => {
    if (tool === ASK_USER_TOOL) return questions(ctx, input, o)
    const plan = tool === 'ExitPlanMode'
    const rules = alwaysRules(tool, input, o.suggestions)
    const options: PermissionOption[] = plan ? PLAN_OPTIONS : [
      { optionId: 'allow_once', name: 'Allow once', kind: 'allow_once' },
      { optionId: 'allow_always', name: `Always allow ${rulesText(rules)}`, kind: 'allow_always' },
      { optionId: 'reject_once', name: 'Reject', kind: 'reject_once' },
    ]
    const info = toolInfo(tool, input)
    ctx.asking(o.toolUseID, tool, input)
    let answer
    try {
      answer = await ctx.client.request('session/request_permission', {
        sessionId: ctx.sessionId, options,
        toolCall: { toolCallId: o.toolUseID, title: info.title, kind: info.kind, status: 'pending', locations: info.locations, rawInput: input, ...(info.content.length ? { content: info.content } : {}) },
      }, { cancellationSignal: o.signal, stopWaitingOnCancel: true })
    } catch (err) {
      if (o.signal.aborted) return interrupted(tool)
      // An editor that answers the ask with an error has not allowed the call. Thrown on, the error
      // would fail the tool call through every mod around it, each logging it as its own failure.
      ctx.log(`the editor could not be asked about ${tool}: ${describeError(err)}`)
      return { behavior: 'deny', message: `The editor could not be asked about this ${tool} call (${describeError(detailed(err))}), so it was not run.` }
    }
    if (answer.outcome.outcome === 'cancelled' || o.signal.aborted) return interrupted(tool)
    const picked = answer.outcome.optionId
    if (plan) return planAnswer(ctx, picked, o.toolUseID)
    if (picked === 'reject_once') return { behavior: 'deny', message: `The user denied this ${tool} call.` }
    if (picked === 'allow_always') await saveRules(ctx, rules)
    else if (picked !== 'allow_once') return { behavior: 'deny', message: `The editor answered with an option this ask did not offer ("${picked}"), so the ${tool} call was not run.` }
    ctx.allowed(o.toolUseID)
    return { behavior: 'allow' }
  }
}

/**
 * ExitPlanMode asks whether to leave plan mode and into which mode, as Claude Code's plan approval
 * does; the editor shows the plan as the tool call's content (tool-info.ts). The option id is the mode.
 */
const PLAN_OPTIONS: PermissionOption[] = [
  { optionId: 'acceptEdits', name: 'Yes, and auto-accept edits', kind: 'allow_always' },
  { optionId: 'default', name: 'Yes, and manually approve edits', kind: 'allow_once' },
  { optionId: 'plan', name: 'No, keep planning', kind: 'reject_once' },
]

function planAnswer(ctx: PermissionAskContext, picked: string, toolUseId: string): PermissionResult {
  if (picked === 'plan') return { behavior: 'deny', message: 'The user did not approve the plan and wants to keep planning: stay in plan mode.' }
  if (picked !== 'acceptEdits' && picked !== 'default') return { behavior: 'deny', message: `The editor answered with an option this ask did not offer ("${picked}"), so plan mode goes on.` }
  ctx.allowed(toolUseId)
  // The mode is set through the permissions mod before the call runs, which then leaves plan mode for it.
  return { behavior: 'allow', updatedPermissions: [{ type: 'setMode', mode: picked, destination: 'session' }] }
}

/** AskUserQuestion: its questions, asked one by one. */
async function questions(ctx: PermissionAskContext, input: Record<string, unknown>, o: { toolUseID: string; signal: AbortSignal }): Promise<PermissionResult> {
  ctx.asking(o.toolUseID, ASK_USER_TOOL, input)
  let r: PermissionResult | 'cancelled'
  try {
    r = await askQuestions(ctx.client, ctx.sessionId, o.toolUseID, input, o.signal)
  } catch (err) {
    if (o.signal.aborted) return interrupted(ASK_USER_TOOL)
    ctx.log(`the editor could not be asked the questions: ${describeError(err)}`)
    return { behavior: 'deny', message: `The editor could not be asked the questions (${describeError(detailed(err))}).` }
  }
  if (r === 'cancelled') return interrupted(ASK_USER_TOOL)
  if (r.behavior === 'allow') ctx.allowed(o.toolUseID)
  return r
}

const interrupted = (tool: string): PermissionResult => ({ behavior: 'deny', message: `The user interrupted the ${tool} call and did not allow it.`, interrupt: true })

async function saveRules(ctx: PermissionAskContext, rules: AlwaysRule[]): Promise<void> {
  const api = ctx.permissions()
  if (!api) return ctx.log('the permissions mod is not loaded: allowed this once, no rule saved')
  try {
    const r = await api.persistUpdate({ type: 'addRules', rules, behavior: 'allow', destination: 'localSettings' })
    ctx.log(`saved: allow ${rulesText(rules)}${r.file ? ` in ${r.file}` : ''}`)
  } catch (err) {
    ctx.log(`the rule could not be saved: ${describeError(err)}`)
  }
}
