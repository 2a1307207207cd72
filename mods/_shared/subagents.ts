import type { ToolContext } from '../../core/tools/tool.js'

/**
 * The subagents a session started, as the mod that runs them offers them to others (`subagents`):
 * listed, and reachable by a message. The send-message mod's SendMessage and ListAgents use it.
 */

export interface SubagentInfo {
  agentId: string
  /** Its agent type (`general-purpose`, `Explore`, an agent file's name). */
  type: string
  description: string
  status: 'running' | 'completed' | 'failed' | 'stopped'
  background: boolean
  /** ms since the epoch, of its first start. */
  startTime: number
}

/**
 * How a message to a subagent went: given to it while it runs (it reads it at its next tool
 * round), or it had ended and runs again from its history with the message as a background task.
 */
export type SendOutcome =
  | { delivered: string }
  | { resumed: string }
  | { unknown: true }
  | { refused: string }

export interface Subagents {
  list(): SubagentInfo[]
  /** `to`: an agent id. `text`: what the agent reads, framed by the sender. */
  send(to: string, text: string, ctx: ToolContext): Promise<SendOutcome>
  /**
   * Gives a running subagent a report of its own background work (a watch's event) at its next
   * tool round; false when it does not run. Unlike a message it never resumes one: an event it
   * ends without reading is dropped with its run.
   */
  notify(agentId: string, text: string): boolean
}

declare module '../../core/mod/capabilities.js' {
  interface Capabilities {
    /** The subagents of a session, by session id (the agent mod). */
    subagents: (sessionId: string) => Subagents | undefined
  }
}
