import type { ToolContext, ToolOutput } from '../../core/tools/tool.js'

/**
 * Runs a built-in tool's call somewhere else (an editor's buffers or terminal, over ACP): it gets
 * the input the permission check let through and answers as the tool would, or undefined to let
 * the local tool run after all (e.g. a Bash call in the background).
 */
export type ToolDelegate = (input: Record<string, unknown>, ctx: ToolContext, dirs: readonly string[], shell?: DelegateShell) => Promise<ToolOutput | undefined>

/**
 * What Bash hands a delegate that runs its command elsewhere, so the command runs as the local
 * one would: the session's environment (settings `env` included) and the command as a script
 * that sources the hooks' env files first and notes the directory it ends in, which `done` adopts
 * for the next call (answering a note when that directory is refused).
 */
export interface DelegateShell {
  env: Record<string, string | undefined>
  wrap(command: string): { script: string; done(): Promise<string | undefined> }
}

/**
 * The delegates of each session, by tool name. The tools and the mod that delegates them are
 * separate mods (each removable by config), so, as with the read state, a module-level map keyed
 * by session id is the one place they all reach; the delegating mod drops its entries on session.end.
 */
const sessions = new Map<string, Map<string, ToolDelegate>>()

/** Hands a session's calls of `tool` to `run`; returns the disposer. */
export function delegateTool(sessionId: string, tool: string, run: ToolDelegate): () => void {
  let tools = sessions.get(sessionId)
  if (!tools) sessions.set(sessionId, (tools = new Map()))
  tools.set(tool, run)
  return () => {
    if (tools.get(tool) !== run) return
    tools.delete(tool)
    if (tools.size === 0) sessions.delete(sessionId)
  }
}

/** The delegate's answer for this call, or undefined when the local tool runs. */
export async function delegated(tool: string, input: unknown, ctx: ToolContext, dirs: readonly string[] = [], shell?: DelegateShell): Promise<ToolOutput | undefined> {
  const run = sessions.get(ctx.sessionId)?.get(tool)
  return run ? run(input as Record<string, unknown>, ctx, dirs, shell) : undefined
}
