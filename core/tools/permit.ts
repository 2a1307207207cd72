import type { PermissionAskResult, ProposedVerdict, ToolCheckResult } from '../events/types.js'
import type { CallEnv, PermissionResult } from './pipeline.js'
import { describeError } from '../errors.js'
import { validateInput, type Tool } from './tool.js'

export type Permitted = { input: Record<string, unknown> } | { deny: string; interrupt?: true } | { defer: true }

/**
 * The permission side of one call: `tool.check` gives the verdict; an ask that every tool.check
 * handler left standing is raised as `permission.ask` (a handler may answer it for the
 * approver), and only then goes on to `canUseTool` — or, with no approver, is refused. So
 * whatever answers an ask before the approver (a PermissionRequest hook, a notice that a person
 * is waiting) hears only of asks no tool.check handler decided.
 */
export async function permit(env: CallEnv, tool: Tool, toolUseId: string, input: Record<string, unknown>, proposed: ProposedVerdict | undefined): Promise<Permitted> {
  if (!env.bus.has('tool.check')) return { input }
  const verdict = await env.bus.emit('tool.check', {
    tool: tool.name, input, tool_use_id: toolUseId, ...agentOf(env), ...(env.canUseTool ? { canAsk: true } : {}),
    ...(proposed ? { verdict: proposed } : {}),
  }, undefined, { signal: env.signal })
  if (verdict.decision === 'defer') return { defer: true }
  if (verdict.decision === 'deny') return refused(env, tool, toolUseId, input, verdict)
  const checked = substituted(env, tool, input, verdict.updatedInput, verdict.hook ?? 'a permission check')
  if ('deny' in checked) return checked
  input = checked.input
  if (verdict.decision === 'allow') return { input }

  const asked = await ask(env, tool, toolUseId, input, verdict)
  if (asked.decision === 'deny') return refused(env, tool, toolUseId, input, asked)
  const rewritten = substituted(env, tool, input, asked.updatedInput, asked.hook ?? 'a permission.ask handler')
  if ('deny' in rewritten) return rewritten
  input = rewritten.input
  if (asked.decision === 'allow') return { input }
  const reason = asked.reason ?? verdict.reason
  if (!env.canUseTool) {
    return { deny: `Permission to use ${tool.name} requires approval${reason ? ` (${reason})` : ''}, and no one can approve it in this non-interactive session.` }
  }
  let answer: PermissionResult | null
  try {
    // The approver is told of an interrupt by its signal; one that never answers must not hold the turn past it.
    answer = await untilAborted(env.canUseTool(tool.name, input, {
      signal: env.signal, toolUseID: toolUseId, requestId: `ask_${toolUseId}`, agentID: env.agentId, decisionReason: reason,
      ...(verdict.suggestions?.length ? { suggestions: verdict.suggestions } : {}), ...(verdict.blockedPath ? { blockedPath: verdict.blockedPath } : {}),
      ...(tool.traits?.mcpServer ? { mcpServer: { ...tool.traits.mcpServer } } : {}), ...(tool.traits?.asksUser ? { requiresUserInteraction: true as const } : {}),
    }), env.signal)
  } catch (err) {
    // A throw once the turn was aborted is the abort's; any other is the approver failing, which grants nothing (Claude Code's words).
    if (env.signal.aborted) throw err
    return { deny: `Tool permission request failed: ${describeError(err)}` }
  }
  if (answer === null || typeof answer !== 'object') return { deny: `Permission to use ${tool.name} was not given: the approver (canUseTool) gave no answer.` }
  // Only a well-formed allow grants: an unknown behavior or a deny without its message is refused, as Claude Code does.
  if (!wellFormed(answer)) return { deny: INVALID_ANSWER }
  if (answer.behavior === 'deny') return { deny: answer.message, ...(answer.interrupt === true ? { interrupt: true as const } : {}) }
  // The approver's substitute is held to the schema like the model's input; an invalid one grants nothing.
  const approved = substituted(env, tool, input, answer.updatedInput, 'the canUseTool approver')
  if ('deny' in approved) return approved
  input = approved.input
  // Applied before the call runs: a granted directory or rule already holds for it.
  if (Array.isArray(answer.updatedPermissions) && answer.updatedPermissions.length > 0 && env.bus.has('permission.update')) {
    await env.bus.emit('permission.update', { tool: tool.name, tool_use_id: toolUseId, updates: answer.updatedPermissions, ...agentOf(env) }, undefined, { signal: env.signal })
  }
  return { input }
}

/** The promise's outcome, or a rejection with the abort's reason as soon as the signal aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason)
  let onAbort!: () => void
  const aborted = new Promise<never>((_, reject) => { onAbort = () => reject(signal.reason) })
  signal.addEventListener('abort', onAbort, { once: true })
  return Promise.race([promise, aborted]).finally(() => signal.removeEventListener('abort', onAbort))
}

const INVALID_ANSWER = "The canUseTool callback returned an invalid permission result. Expected {behavior: 'allow', updatedInput?: object} or {behavior: 'deny', message: string}."

function wellFormed(answer: PermissionResult): boolean {
  const a = answer as { behavior?: unknown; message?: unknown; updatedInput?: unknown }
  if (a.behavior === 'deny') return typeof a.message === 'string'
  if (a.behavior !== 'allow') return false
  const isObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v)
  return a.updatedInput === undefined || isObject(a.updatedInput)
}

const agentOf = (env: CallEnv) => (env.agentId ? { agentId: env.agentId } : {})

/** The ask as it stood after tool.check, raised for whoever answers before the approver; with no handler it stands. */
async function ask(env: CallEnv, tool: Tool, toolUseId: string, input: Record<string, unknown>, verdict: ToolCheckResult): Promise<PermissionAskResult> {
  if (!env.bus.has('permission.ask')) return { decision: 'ask' }
  return env.bus.emit('permission.ask', {
    tool: tool.name, input, tool_use_id: toolUseId, ...(env.canUseTool ? { canAsk: true } : {}),
    ...(verdict.reason !== undefined ? { reason: verdict.reason } : {}), ...(verdict.rule ? { rule: verdict.rule } : {}), ...(verdict.hook ? { hook: verdict.hook } : {}),
    ...(verdict.suggestions?.length ? { suggestions: verdict.suggestions } : {}), ...(verdict.blockedPath ? { blockedPath: verdict.blockedPath } : {}), ...agentOf(env),
  }, undefined, { signal: env.signal })
}

/** A whole input put in place of the call's, held to the tool's schema; an invalid one grants nothing. */
function substituted(env: CallEnv, tool: Tool, input: Record<string, unknown>, updated: Record<string, unknown> | undefined, by: string): { input: Record<string, unknown> } | { deny: string } {
  if (updated === undefined) return { input }
  const valid = validateInput(tool, updated, { at: env })
  if (!valid.ok) return { deny: `${tool.name}: the input ${by} substituted is not valid: ${valid.message}` }
  return { input: valid.input as Record<string, unknown> }
}

/** A denial, with the reason the model reads after permission.denied handlers had their say. */
async function refused(env: CallEnv, tool: Tool, toolUseId: string, input: Record<string, unknown>, verdict: { reason?: string; rule?: string; hook?: string; interrupt?: true }): Promise<Permitted> {
  const reason = verdict.reason ?? `Permission to use ${tool.name} has been denied${verdict.rule ? ` by the rule ${verdict.rule}` : ''}.`
  const interrupt = verdict.interrupt === true ? { interrupt: true as const } : {}
  if (!env.bus.has('permission.denied')) return { deny: reason, ...interrupt }
  const r = await env.bus.emit('permission.denied', {
    tool: tool.name, input, tool_use_id: toolUseId, reason,
    ...(verdict.rule ? { rule: verdict.rule } : {}), ...(verdict.hook ? { hook: verdict.hook } : {}), ...agentOf(env),
  }, undefined, { signal: env.signal })
  return { deny: r.reason, ...interrupt }
}
