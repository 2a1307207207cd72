import type { On } from '../../core/bus/types.js'
import type { ModApi } from '../../core/mod/api.js'
import type { AgentDefinition } from './definitions.js'

/** The main conversation's agent (the `agent` query option), per session. */
export type MainAgents = Map<string, AgentDefinition>

/**
 * The `agent` option runs the main conversation as that agent type: its prompt replaces the
 * system prompt's base sections (an appended prompt stays, and mods still add theirs), only its
 * tools are offered and callable there, and its model is switched to as the session starts.
 */
export function registerMainAgent(on: On, main: MainAgents): void {
  on('prompt.compose', async ($, e, next) => {
    const agent = main.get($.session.id() as string)
    if (!agent || e.agentId || agent.prompt === undefined) return next(e)
    const kept = e.sections.filter((s) => s.id === 'append' || s.id === 'append_cli')
    return next({ ...e, sections: [{ id: `agent:${agent.name}`, text: agent.prompt, scope: 'session' }, ...kept] })
  })

  on('tool.describe', async ($, e, next) => {
    const r = await next(e)
    const agent = main.get($.session.id() as string)
    return agent && !allows(agent, e.tool) ? { ...r, isHidden: true } : r
  })

  on('tool.call', async ($, e, next) => {
    const agent = main.get($.session.id() as string)
    if (!agent || e.agentId || allows(agent, e.tool)) return next(e)
    return { deny: `${e.tool} is not among the tools of the ${agent.name} agent this session runs as` }
  })

  on('session.end', (_$, e, next) => {
    main.delete(e.sessionId)
    return next(e)
  })
}

/** Adopts the agent for the session; its model (unless `inherit`) is switched to, which mods may refuse. */
export async function startMainAgent($: ModApi, main: MainAgents, sessionId: string, agent: AgentDefinition): Promise<void> {
  main.set(sessionId, agent)
  if (!agent.model || agent.model === 'inherit') return
  const r = (await $.config.set({ key: 'model', value: agent.model })) as { deny?: string } | undefined
  if (r?.deny) $.log.warn(`the ${agent.name} agent's model ${agent.model} was refused: ${r.deny}`)
}

function allows(agent: AgentDefinition, tool: string): boolean {
  if (agent.disallowedTools?.includes(tool)) return false
  return !agent.tools || agent.tools.includes(tool)
}
