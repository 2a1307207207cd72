import type { On } from '../../core/bus/types.js'
import { findAgent, type AgentDefinition } from './definitions.js'

/**
 * `@agent-<name>` in a prompt asks for that subagent, as in Claude Code: the model is told to hand
 * the request to it, and no file is read for the mention. A name that is no agent type of the
 * session is left to the handlers beneath (a file may be called `agent-…`).
 */
export function agentMentions(on: On, agentsOf: (sessionId: string) => ReadonlyMap<string, AgentDefinition> | undefined): void {
  on('prompt.mention', ($, e, next) => {
    const name = /^agent-(.+)$/.exec(e.mention)?.[1]
    const agents = name ? agentsOf($.session.id() as string) : undefined
    const agent = name && agents ? findAgent(agents, name) : undefined
    if (!agent) return next(e)
    return { type: null, context: [`The user asked for the agent "${agent.name}" (@${e.mention}): hand this request to it with the Agent tool, giving it the context it needs.`] }
  })
}
