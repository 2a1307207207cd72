import { z } from 'zod'

/**
 * The frontmatter hooks of the agent types that have them, as the agent mod publishes them under
 * `$.state` `{plugin: 'agent', key: 'hooks'}`, by agent type. The shell-hooks mod runs them while a
 * subagent of that type runs (spec settings-hooks §1.8), its `Stop` hooks as `SubagentStop`.
 */
export const AGENT_HOOKS_REF = { plugin: 'agent', key: 'hooks' } as const

export const agentHooksShape = z.record(z.string(), z.object({
  hooks: z.record(z.string(), z.unknown()),
  /** The agent file, or `config` for an agent defined in the distribution's config. */
  file: z.string(),
  /** A project's agents run their hooks only where that project folder itself is trusted. */
  scope: z.enum(['user', 'project', 'config', 'plugin']),
}))
export type AgentHooks = z.output<typeof agentHooksShape>
