import type { ToolCallResult } from '../../core/events/types.js'
import type { On } from '../../core/bus/types.js'
import { STAGE } from '../../core/bus/types.js'
import type { ModApi } from '../../core/mod/api.js'
import { inputOf } from '../../core/tools/pipeline.js'
import { contexts, type HookBridge } from './bridge.js'
import type { HookRunResult } from '../../hooks-runner/index.js'
import { adoptInvocationHooks } from './frontmatter-hooks.js'
import { replacedOutput } from './updated-output.js'

// Hooks default to a 600 s timeout; the handler's own-time budget must not cut them short.
export const HOOK_BUDGET_MS = 11 * 60_000

const withContext = (context: string[]) => (context.length > 0 ? { context } : {})

/** What the model reads of each hook that blocked after a call: one entry per hook, naming its command, as Claude Code words it. */
const blockingErrors = (r: HookRunResult): string[] =>
  r.blocks.map((b) => `${r.hookName} hook blocking error from command: "${b.hook}": ${b.reason}`)

const textOf = (result: unknown): string => (typeof result === 'string' ? result : result === undefined ? '' : JSON.stringify(result))

/**
 * `mcp_server` for an MCP server's tool: the server's name and where it was configured, which
 * tool events carry beside the tool's name, as Claude Code sends them.
 */
export async function mcpServerField($: ModApi, tool: string): Promise<{ mcp_server?: { name: string; source: string } }> {
  if (!tool.startsWith('mcp__')) return {}
  const server = (await $.tool.list()).find((t) => t.name === tool)?.mcpServer
  return server ? { mcp_server: server } : {}
}

/** PostToolUseFailure's `error`: a shell's starts with `Exit code N`, then its output (spec §2.13). */
function failureText(res: { result: unknown; text?: string }): string {
  const text = res.text ?? textOf(res.result)
  const code = (res.result as { exitCode?: unknown } | null | undefined)?.exitCode
  if (typeof code !== 'number') return text
  const lead = `Exit code ${code}`
  if (text === lead || text.startsWith(`${lead}\n`)) return text
  return [lead, text].filter((s) => s !== '').join('\n')
}

/**
 * The tool events. `tool.call` (innermost of the mods, so settings hooks sit beneath every mod as
 * spec mods §6.4 orders them): PreToolUse may deny (the reason reaches the model), rewrite the
 * input (the permission check and the tool see the rewrite) or leave a verdict for `tool.check`;
 * after the call, PostToolUse or PostToolUseFailure add context, replace the output, or stop.
 * The permission side (`tool.check`) is in permission-hooks.ts.
 */
export function registerToolHooks(on: On, bridgeOf: ($: ModApi) => HookBridge | undefined): void {
  on('tool.call', async ($, e, next) => {
    const b = bridgeOf($)
    if (!b) return next(e)
    const agent = b.agentOptions(e.agentId)
    let input = inputOf(e)
    let call = e
    const context: string[] = []
    // Looked up only for a call some tool hook will hear of.
    const server = b.has('PreToolUse') || b.has('PostToolUse') || b.has('PostToolUseFailure') ? await mcpServerField($, e.tool) : {}
    if (b.has('PreToolUse') && e.tool === 'Monitor' && typeof input.command === 'string') {
      // Claude Code runs Bash's PreToolUse hooks on a watch's command too, as a Bash call of it
      // (tool_name Bash): a guard on shell commands is not slipped by running one as a Monitor.
      const description = typeof input.description === 'string' ? { description: input.description } : {}
      const r = await b.fire('PreToolUse', { tool_name: 'Bash', tool_input: { command: input.command, ...description }, tool_use_id: e.tool_use_id }, { ...agent, signal: next.signal })
      context.push(...contexts(r))
      if (r.decision === 'deny' || (r.blocked && r.decision !== 'defer')) return { deny: `${r.hookName} hook error: ${r.decisionReason ?? r.blockReason ?? 'Blocked by hook'}`, ...withContext(context) }
    }
    if (b.has('PreToolUse')) {
      const r = await b.fire('PreToolUse', { tool_name: e.tool, tool_input: input, tool_use_id: e.tool_use_id, ...server }, { ...agent, signal: next.signal })
      context.push(...contexts(r))
      // Claude Code's words for a refusal (spec §3.2); its additionalContext still reaches the model beside it.
      const refusal = `${r.hookName} hook error: ${r.decisionReason ?? r.blockReason ?? 'Blocked by hook'}`
      if (r.stop) {
        const reason = r.stop.reason ?? `${r.hookName} hook stopped the session`
        // A hook that denied as it stopped (a prompt hook's ok:false) leaves its refusal in the
        // conversation, as Claude Code does; the stop reason is the user's.
        const deny = r.decision === 'deny' ? refusal : `${r.hookName} hook stopped this call and the session: ${reason}`
        return { deny, halt: reason, ...withContext(context) }
      }
      if (r.decision === 'deny' || (r.blocked && r.decision !== 'defer')) return { deny: refusal, ...withContext(context) }
      if (r.updatedInput && r.decision !== 'defer') {
        input = r.updatedInput
        call = { ...r.updatedInput, tool: e.tool, tool_use_id: e.tool_use_id, ...(e.agentId ? { agentId: e.agentId } : {}) }
      }
      // The hook's verdict travels down to the permission check in the event (tool.check's `verdict`).
      if (r.decision) call = { ...call, verdict: { decision: r.decision, ...(r.decisionReason !== undefined ? { reason: r.decisionReason } : {}), ...(r.hookName ? { hook: r.hookName } : {}) } }
    }
    const started = performance.now()
    let res: ToolCallResult = await next(call)
    b.instructionsLoaded()
    if (e.tool === 'Skill' && !('deny' in res) && !res.isError) adoptInvocationHooks($, b, e.agentId)
    // A refusal further down (a deny rule) keeps what PreToolUse hooks said.
    if ('deny' in res) return context.length > 0 ? { ...res, context: [...(res.context ?? []), ...context] } : res
    let halt: string | undefined
    const fields = { tool_name: e.tool, tool_input: res.ranWith ?? input, tool_use_id: e.tool_use_id, duration_ms: Math.round(performance.now() - started), ...server }
    if (!res.isError && b.has('PostToolUse')) {
      const r = await b.fire('PostToolUse', { ...fields, tool_response: res.result }, agent)
      context.push(...contexts(r))
      context.push(...blockingErrors(r))
      // updatedMCPToolOutput is the deprecated name, still honoured for MCP tools (spec §2.12).
      const updated = r.updatedToolOutput ?? (e.tool.startsWith('mcp__') ? r.updatedMCPToolOutput : undefined)
      if (updated !== undefined) {
        const replaced = replacedOutput($, e.tool, res, updated)
        if (replaced) res = replaced
        else b.warn(`${r.hookName} hook: updatedToolOutput does not fit the ${e.tool} tool's output and was ignored`)
      }
      if (r.stop) halt = r.stop.reason ?? `${r.hookName} hook stopped the session`
    } else if (res.isError && b.has('PostToolUseFailure')) {
      // Claude Code always sends is_interrupt: hooks test it for false as well as true.
      const r = await b.fire('PostToolUseFailure', { ...fields, error: failureText(res), is_interrupt: next.signal.aborted }, agent)
      context.push(...contexts(r))
      context.push(...blockingErrors(r))
      if (r.stop) halt = r.stop.reason ?? `${r.hookName} hook stopped the session`
    }
    if (context.length === 0 && halt === undefined) return res
    return { ...res, context: [...(res.context ?? []), ...context], ...(halt !== undefined ? { halt } : {}) }
  }, { stage: STAGE.last, budgetMs: HOOK_BUDGET_MS })

  // PostToolBatch: once the batch is answered, before the next request (spec §2.14).
  on('tool.batch', async ($, e, next) => {
    const res = await next(e)
    const b = bridgeOf($)
    if (!b) return res
    // Memory files a tool's path pulled in are published once every tool.call wrapper is done.
    b.instructionsLoaded()
    // Async hooks that ended meanwhile speak beside these results (main loop only: subagents have their own context).
    const late = e.agentId ? [] : await b.takeAsync()
    if (!b.has('PostToolBatch')) return late.length > 0 ? { ...res, context: [...(res.context ?? []), ...late] } : res
    const r = await b.fire('PostToolBatch', {
      tool_calls: e.calls.map((c) => ({ tool_name: c.tool, tool_input: c.input, tool_use_id: c.tool_use_id, tool_response: c.result })),
    }, { ...b.agentOptions(e.agentId), signal: next.signal })
    const context = [...(res.context ?? []), ...late, ...contexts(r)]
    const reason = r.stop ? r.stop.reason ?? `${r.hookName} hook stopped the session` : r.blocked ? r.blockReason ?? `${r.hookName} hook stopped the loop` : undefined
    if (reason === undefined) return context.length > 0 ? { ...res, context } : res
    // The reason is shown as a warning and stays in the conversation.
    b.notice(`${r.hookName} hook stopped the loop: ${reason}`, 'warning')
    return { ...res, context: [...context, `${r.hookName} hook stopped the loop: ${reason}`], halt: reason }
  }, { budgetMs: HOOK_BUDGET_MS })
}
