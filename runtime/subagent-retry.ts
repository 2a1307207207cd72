import type { SDKMessage, SDKSystemMessage, SDKToolProgressMessage } from '../core/loop/messages.js'

/** Which subagent a progress line is about. */
export interface SubagentOf {
  agentId: string
  parentToolUseId: string
  subagentType: string
}

type Stamp = (m: Omit<SDKToolProgressMessage, 'uuid' | 'session_id'>) => SDKToolProgressMessage

export function isRetry(m: SDKMessage): m is SDKSystemMessage {
  return m.type === 'system' && m.subtype === 'api_retry'
}

/**
 * A subagent's request retry as Claude Code shows it on the caller's stream: progress of the Agent
 * call waiting on it, `subagent_retry` saying which attempt, not an `api_retry` a reader would take
 * for the main conversation's. Without `retry` it clears that: the request went through or gave up.
 */
export function retryProgress(of: SubagentOf, stamp: Stamp, retry?: SDKSystemMessage): SDKToolProgressMessage {
  return stamp({
    type: 'tool_progress', tool_use_id: of.parentToolUseId, tool_name: 'Agent', parent_tool_use_id: of.parentToolUseId,
    elapsed_time_seconds: 0, subagent_type: of.subagentType,
    ...(retry ? {
      subagent_retry: {
        agent_id: of.agentId, attempt: retry.attempt as number, max_retries: retry.max_retries as number,
        retry_delay_ms: retry.retry_delay_ms as number, error_status: retry.error_status as number | null, error_category: retry.error as string,
      },
    } : {}),
  })
}
