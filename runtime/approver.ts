import { describeError } from '../core/errors.js'
import type { CanUseTool, PermissionResult } from '../core/tools/pipeline.js'
import type { QueryOptions } from './options.js'
import type { Session } from '../core/loop/session.js'

/**
 * Who answers the session's permission asks, from the options: `canUseTool`; else the MCP tool
 * `permissionPromptToolName` names; nobody under `permissionPrompts: 'none'` (an ask is then denied
 * at once). `session` is read when an ask comes, once the tools are registered.
 */
export function approverOf(options: QueryOptions, session: () => Session): CanUseTool | undefined {
  if (options.permissionPrompts === 'none') return undefined
  if (options.canUseTool) return options.canUseTool
  const name = options.permissionPromptToolName
  if (!name) return undefined
  return (toolName, input, o) => askPromptTool(session(), name, { tool_name: toolName, input, tool_use_id: o.toolUseID }, o.signal)
}

/**
 * Calls the permission prompt tool as Claude Code does: `{tool_name, input, tool_use_id}` in, the
 * text of its answer a JSON `{behavior: 'allow', updatedInput?}` or `{behavior: 'deny', message}`.
 * A tool that is missing, fails or answers anything else denies, naming the tool.
 */
async function askPromptTool(session: Session, name: string, request: Record<string, unknown>, signal: AbortSignal): Promise<PermissionResult> {
  const deny = (why: string): PermissionResult => ({ behavior: 'deny', message: `The permission prompt tool ${name} ${why}.` })
  const tool = session.root.tools.get(name)
  if (!tool) return deny(`is not available (is its MCP server connected?)`)
  let text: string
  try {
    const out = await tool.call(request, { signal, cwd: session.cwd, sessionId: session.id, toolUseId: `perm_${String(request.tool_use_id)}`, progress: () => {} })
    const o = typeof out === 'string' ? { result: out, text: out } : out
    if (o.isError) return deny(`failed: ${o.text ?? String(o.result)}`)
    text = o.text ?? (typeof o.result === 'string' ? o.result : JSON.stringify(o.result))
  } catch (err) {
    return deny(`failed: ${describeError(err)}`)
  }
  let answer: unknown
  try {
    answer = JSON.parse(text)
  } catch {
    return deny(`answered text that is not JSON: ${text.slice(0, 200)}`)
  }
  const a = answer as { behavior?: unknown; updatedInput?: unknown; message?: unknown; updatedPermissions?: unknown }
  if (a?.behavior === 'allow') {
    return {
      behavior: 'allow',
      ...(isObject(a.updatedInput) ? { updatedInput: a.updatedInput } : {}),
      ...(Array.isArray(a.updatedPermissions) ? { updatedPermissions: a.updatedPermissions } : {}),
    } as PermissionResult
  }
  if (a?.behavior === 'deny') return { behavior: 'deny', message: typeof a.message === 'string' ? a.message : `Denied by ${name}.` }
  return deny(`answered ${text.slice(0, 200)}, not {"behavior": "allow" | "deny", ...}`)
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
