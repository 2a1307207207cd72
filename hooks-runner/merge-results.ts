import { isDeepStrictEqual } from 'node:util'
import type { HooksWarning } from './errors.js'
import type { HookEventName } from './events.js'
import type { SpecificOutput } from './output-schema.js'
import type { HookRecord, HookRunResult, PermissionDecision } from './result-types.js'

export type MergedFields = Omit<HookRunResult, 'event' | 'matchQuery' | 'hookName' | 'records' | 'background' | 'envFiles' | 'durationMs' | 'warnings'>

const RANK: Record<PermissionDecision, number> = { allow: 1, ask: 2, defer: 3, deny: 4 }
const CLASSIFIER_CONTEXT_CAP = 2_000

/**
 * Merges the hooks of one firing (spec §3.7), always in settings order, never in finish order:
 * the most restrictive permission wins (deny > defer > ask > allow) and an exit-2 block cannot be
 * overridden; every context and message is kept; `continue:false` from any hook stops; for a value
 * that only one hook can set (`updatedInput`, `updatedToolOutput`, `sessionTitle`, …) the last hook in
 * settings order wins, and differing values raise a conflict warning naming every hook involved.
 * `superseded` holds ids whose rewrite a later hook of the same sequential group already consumed.
 */
export function mergeRecords(event: HookEventName, records: readonly HookRecord[], warnings: HooksWarning[], superseded: ReadonlySet<number> = new Set()): MergedFields {
  const ordered = [...records].sort((a, b) => a.id - b.id)
  const pick = <K extends keyof SpecificOutput>(key: K) => lastWins(ordered, (r) => r.effect.specific[key], key, warnings)
  const out: MergedFields = {
    blocked: false, blocks: [], additionalContexts: [], systemMessages: [], suppressOutput: false, terminalSequences: [], errors: [],
  }
  for (const r of ordered) {
    const e = r.effect
    if (e.block !== undefined) out.blocks.push({ hook: r.name, source: r.source, reason: e.block })
    if (e.context !== undefined) out.additionalContexts.push({ text: e.context, hook: r.name, source: r.source, ...(e.contextIsStdout ? { stdout: true as const } : {}) })
    if (e.systemMessage !== undefined) out.systemMessages.push({ text: e.systemMessage, hook: r.name, source: r.source })
    if (e.stop && !out.stop) out.stop = { reason: e.stop.reason, hook: r.name }
    if (e.suppressOutput) out.suppressOutput = true
    if (e.terminalSequence !== undefined) out.terminalSequences.push(e.terminalSequence)
    if (r.outcome === 'error' || r.outcome === 'timeout' || r.outcome === 'launch_error') {
      out.errors.push({ hook: r.name, source: r.source, outcome: r.outcome, message: r.message ?? r.outcome })
    }
  }
  out.blocked = out.blocks.length > 0
  if (out.blocked) out.blockReason = out.blocks.map((b) => b.reason).join('\n')

  const decided = ordered.filter((r) => r.effect.permission !== undefined)
  if (decided.length) {
    const decision = decided.reduce<PermissionDecision>((d, r) => (RANK[r.effect.permission!] > RANK[d] ? r.effect.permission! : d), 'allow')
    out.decision = decision
    const reasons = decided.filter((r) => r.effect.permission === decision).map((r) => r.effect.permissionReason).filter((s): s is string => !!s)
    if (reasons.length) out.decisionReason = reasons.join('\n')
  }
  if (event === 'PreToolUse' && out.decision !== 'deny' && out.decision !== 'defer') {
    // Rewrites from the hooks whose decision won are preferred over undecided hooks' rewrites.
    const rewrites = ordered.filter((r) => r.effect.specific.updatedInput !== undefined && !superseded.has(r.id))
    const winners = rewrites.filter((r) => out.decision !== undefined && r.effect.permission === out.decision)
    out.updatedInput = lastWins(winners.length ? winners : rewrites, (r) => r.effect.specific.updatedInput, 'updatedInput', warnings, rewrites)
  }
  if (event === 'PermissionRequest') mergePermissionRequest(ordered, out, warnings, superseded)

  out.updatedToolOutput = pick('updatedToolOutput')
  out.updatedMCPToolOutput = pick('updatedMCPToolOutput')
  const notes = ordered.map((r) => r.effect.specific.classifierContext).filter((s): s is string => !!s)
  if (notes.length) out.classifierContext = notes.join('\n').slice(0, CLASSIFIER_CONTEXT_CAP)
  out.sessionTitle = pick('sessionTitle')
  out.initialUserMessage = pick('initialUserMessage')
  out.displayContent = pick('displayContent')
  out.worktreePath = pick('worktreePath')
  out.watchPaths = pick('watchPaths')
  if (ordered.some((r) => r.effect.specific.retry)) out.retry = true
  if (ordered.some((r) => r.effect.specific.reloadSkills)) out.reloadSkills = true
  if (ordered.some((r) => r.effect.specific.suppressOriginalPrompt)) out.suppressOriginalPrompt = true
  if (event === 'Elicitation' || event === 'ElicitationResult') {
    const action = out.blocked ? 'decline' : pick('action')
    const content = out.blocked ? undefined : pick('content')
    if (action !== undefined || content !== undefined) out.elicitation = { action, content }
  }
  return out
}

function mergePermissionRequest(ordered: HookRecord[], out: MergedFields, warnings: HooksWarning[], superseded: ReadonlySet<number>) {
  const decisions = ordered.filter((r) => r.effect.specific.decision !== undefined)
  const denies = decisions.filter((r) => r.effect.specific.decision!.behavior === 'deny')
  if (denies.length) {
    // Deny beats allow (the protocol leaves this open; the safe choice).
    const messages = denies.map((r) => (r.effect.specific.decision as { message?: string }).message).filter((m): m is string => !!m)
    out.permissionRequest = {
      behavior: 'deny',
      ...(messages.length ? { message: messages.join('\n') } : {}),
      ...(denies.some((r) => (r.effect.specific.decision as { interrupt?: boolean }).interrupt) ? { interrupt: true } : {}),
    }
    return
  }
  if (!decisions.length) return
  type Allow = { updatedInput?: Record<string, unknown>; updatedPermissions?: unknown[] }
  const allows = decisions.map((r) => ({ r, d: r.effect.specific.decision as Allow }))
  const updatedInput = lastWins(allows.filter(({ r }) => !superseded.has(r.id)).map(({ r }) => r), (r) => (r.effect.specific.decision as Allow).updatedInput, 'decision.updatedInput', warnings)
  const updatedPermissions = allows.flatMap(({ d }) => d.updatedPermissions ?? [])
  out.permissionRequest = { behavior: 'allow', ...(updatedInput ? { updatedInput } : {}), ...(updatedPermissions.length ? { updatedPermissions } : {}) }
}

/** The last value in settings order; a warning when hooks disagree (deterministic, unlike finish order). */
function lastWins<T>(
  records: readonly HookRecord[],
  get: (r: HookRecord) => T | undefined,
  field: string,
  warnings: HooksWarning[],
  among: readonly HookRecord[] = records,
): T | undefined {
  const winner = records.filter((r) => get(r) !== undefined).at(-1)
  if (!winner) return undefined
  const value = get(winner)
  const setters = among.filter((r) => get(r) !== undefined)
  if (setters.some((r) => !isDeepStrictEqual(get(r), value))) {
    warnings.push({
      code: 'HOOKS_WARN_CONFLICT',
      message: `${setters.length} hooks set ${field} differently (${setters.map((r) => `"${r.name}" from ${r.source.file}`).join(', ')}); the last in settings order, "${winner.name}", wins`,
      hook: winner.name,
    })
  }
  return value
}
