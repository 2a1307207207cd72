import type { ToolContext, ToolOutput } from '../../core/tools/tool.js'

/** A subagent run as another mod asks for it: what the Agent tool takes. */
export interface AgentRunInput {
  description: string
  prompt: string
  /** The agent type; `general-purpose` when absent. */
  subagent_type?: string
  model?: string
  run_in_background?: boolean
  /**
   * The run is this `context: fork` skill's, as Claude Code shows one: its messages carry the
   * skill's description, and in the foreground its task is part of the Skill call (ambient, its
   * notification's summary the description).
   */
  skill?: { description: string }
}

/**
 * Runs a subagent as an Agent call would, within the caller's own tool call (`ctx`): its task,
 * stream messages and hooks are the Agent tool's. The mod that runs subagents provides it
 * (`agents`); the commands mod runs a `context: fork` skill through it. `report` is the subagent's
 * final text when it ran in the foreground, with its id and the tools it called (each once, in the
 * order first called).
 */
export type AgentRunner = (input: AgentRunInput, ctx: ToolContext) => Promise<{ output: ToolOutput; report?: string; agentId?: string; toolNames?: string[] }>

declare module '../../core/mod/capabilities.js' {
  interface Capabilities {
    agents: AgentRunner
  }
}
