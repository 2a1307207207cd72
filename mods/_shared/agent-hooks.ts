/**
 * The frontmatter hooks of the agent types that have them, by agent type, as the mod that runs
 * subagents provides them (`agentHooks`). The shell-hooks mod runs them while a subagent of that
 * type runs (spec settings-hooks §1.8), its `Stop` hooks as `SubagentStop`.
 */
export type AgentHooks = Record<string, {
  hooks: Record<string, unknown>
  /** The agent file, or `config` for an agent defined in the distribution's config. */
  file: string
  /** A project's agents run their hooks only where that project folder itself is trusted. */
  scope: 'user' | 'project' | 'config' | 'plugin'
}>

declare module '../../core/mod/capabilities.js' {
  interface Capabilities {
    agentHooks: () => AgentHooks
  }
}
