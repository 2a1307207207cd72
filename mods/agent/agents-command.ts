import type { On } from '../../core/bus/types.js'
import type { AgentDefinition } from './definitions.js'
import { registerCommands } from '../_shared/register-command.js'

/**
 * `/agents`: the agent types the Agent tool can start in this session — built-in, the config's,
 * the SDK's, `.claude/agents` of the project and the user, plugins' — each with where it comes
 * from, and where a new one goes. (Claude Code's own now only points at the folders.)
 */
export function registerAgentsCommand(on: On, typesOf: (sessionId: string) => ReadonlyMap<string, AgentDefinition> | undefined): void {
  on('session.start', async ($, e, next) => {
    const r = await next(e)
    await registerCommands($, [{ name: 'agents', description: 'List the subagent types of this session and where each is defined', kind: 'local' }])
    return r
  })

  on('command.run', { command: 'agents' }, ($, _e) => ({ output: agentsText([...(typesOf($.session.id() as string)?.values() ?? [])]) }))
}

function agentsText(agents: readonly AgentDefinition[]): string {
  const rows = agents.map((a) => {
    const from = a.scope === 'built-in' || a.source === a.scope ? a.scope : `${a.scope}: ${a.source}`
    return `  ${a.name} (${from}${a.model ? `, model ${a.model}` : ''}) - ${a.description.split('\n')[0]}`
  })
  return [
    ...(rows.length === 0 ? ['No agent types.'] : [`Agent types (${rows.length}):`, ...rows]),
    'A new one is a Markdown file with name and description frontmatter in .claude/agents/ (this project) or ~/.claude/agents/ (all projects).',
  ].join('\n')
}
