import type { ToolProgress } from '../tools/pipeline.js'
import type { Session } from './session.js'

/**
 * Tool progress as `tool_progress` messages on the root's stream (spec §2.4), a subagent's
 * carrying the tool_use_id of its Agent call. They are shown, never recorded: the transcript
 * keeps the call and its result.
 */
export function progressPoster(session: Session): (p: ToolProgress) => void {
  return (p) => session.post(session.stamp({
    type: 'tool_progress' as const,
    tool_use_id: p.toolUseId,
    tool_name: p.toolName,
    parent_tool_use_id: session.agent?.parentToolUseId ?? null,
    elapsed_time_seconds: Math.round(p.elapsedMs / 100) / 10,
  }))
}
