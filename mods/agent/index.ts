import { envTrue } from '../../core/env.js'
import { z } from 'zod'
import type { SpawnAnswer, SpawnRequest, SubagentResult } from '../../core/mod/contracts.js'
import { defineMod } from '../../core/mod/define.js'
import type { AgentHooks } from '../_shared/agent-hooks.js'
import type { AgentRunInput, AgentRunner } from '../_shared/agent-runner.js'
import type { CoercedInput, ToolContext, ToolOutput } from '../../core/tools/tool.js'
import { failure, registerTool } from '../_shared/register-tool.js'
import '../_shared/tasks.js'
import '../_shared/subagents.js'
import { MAX_FINISHED_AGENTS, Roster } from './roster.js'
import '../permissions/api.js'
import '../commands/api.js'
import { registerAgentsCommand } from './agents-command.js'
import { agentConfig, findAgent, loadAgents, type AgentDefinition } from './definitions.js'
import { loadedPlugins } from '../_shared/loaded-plugins.js'
import { settingSources } from '../_shared/setting-sources.js'
import type { ModApi } from '../../core/mod/api.js'
import { registerMainAgent, startMainAgent, type MainAgents } from './main-agent.js'
import { sdkAgents } from './sdk-agents.js'
import { progressLine, type OutputLog } from './output-log.js'
import { AgentProgress } from './agent-progress.js'
import type { SummaryClock } from './progress-summary.js'
import { agentInput, callAgent } from './run-agent.js'
import { agentMentions } from './agent-mention.js'
import { backgroundOff } from '../_shared/background-off.js'
import { builtinOptions } from '../_shared/builtin-options.js'

const options = builtinOptions('agent', () => z.object({
  /** Agent types defined in the distribution's config, by name. */
  agents: z.record(z.string(), agentConfig()).default({}),
  /** Where ~/.claude/agents is looked for (tests). */
  home: z.string().optional(),
  /** How many ended subagents stay resumable by SendMessage; older ones are released with their history. */
  maxFinishedAgents: z.number().int().min(0).default(MAX_FINISHED_AGENTS),
  /** Read agent types from `.claude/agents` of the user and the project (Claude Code's safe mode reads none). */
  fileAgents: z.boolean().default(true),
  /** The clock progress summaries are timed by; `$.clock` unless given (a test passes one it moves by hand). */
  clock: z.custom<SummaryClock>((v) => typeof (v as SummaryClock)?.now === 'function' && typeof (v as SummaryClock)?.after === 'function', { message: 'expected a clock: { now(), after(ms, fn) }' }).optional(),
}))

/** `foregroundOnly`: nothing runs in the background (CLAUDE_CODE_DISABLE_BACKGROUND_TASKS), so each call waits for its report. */
function describe(agents: Map<string, AgentDefinition>, foregroundOnly: boolean): string {
  const rows = [...agents.values()].map((a) => `- ${a.name}: ${a.description}${toolsNote(a)}`)
  return [
    'Launch a subagent to handle a task on its own: it has a fresh context and its own tools, and replies with one report.',
    'Use it for open-ended searches and for independent pieces of work; several Agent calls in one response run in parallel.',
    `${foregroundOnly
      ? 'The call waits for the agent and its report is the call\'s result.'
      : 'An agent runs in the background: the call returns at once and the agent\'s report comes back to you later as a message of its own; meanwhile go on with other work, and do not do the agent\'s task yourself. Pass run_in_background: false when you need the report before you can go on.'} With isolation "worktree" it works in its own git worktree.`,
    'Available agent types:', ...rows,
  ].join('\n')
}

function toolsNote(a: AgentDefinition): string {
  if (a.tools) return ` (tools: ${a.tools.join(', ')})`
  return a.disallowedTools?.length ? ` (tools: all but ${a.disallowedTools.join(', ')})` : ''
}

function withoutBackground(input: Record<string, unknown>): CoercedInput | undefined {
  if (!('run_in_background' in input)) return undefined
  const { run_in_background: _, ...rest } = input
  return { input: rest }
}

/** The hooks of the agent types that have them, for the shell-hooks mod to run while such a subagent runs. */
function hooksOf(agents: Map<string, AgentDefinition>): AgentHooks {
  const out: AgentHooks = {}
  for (const a of agents.values()) {
    if (a.hooks && a.scope !== 'built-in') out[a.name] = { hooks: a.hooks, file: a.source, scope: a.scope }
  }
  return out
}

/**
 * Agent (alias Task): runs a subagent in a child loop and hands back its final report, framed as
 * the subagent's words; or, in the background, a task of the session's registry (the tasks mod)
 * whose report comes back as a turn of its own.
 */
export default defineMod({
  name: 'agent',
  description: 'The Agent tool: subagents with their own context and tools',
  options,
  provides: ['agentHooks', 'agents', 'subagents'],
  uses: { loadedPlugins: 'optional', tasks: 'optional', permissions: 'optional', transcriptFile: 'optional', commands: 'optional' },
  register(on, opts, $) {
    let hooks: AgentHooks = {}
    $.capability.provide('agentHooks', () => hooks)
    // Each session's Agent call, for other mods' subagents (a `context: fork` skill), by session id.
    const runners = new Map<string, AgentRunner>()
    $.capability.provide('agents', (i, ctx) => runners.get(ctx.sessionId)?.(i, ctx) ?? Promise.resolve({ output: failure('This session runs no subagents.') }))
    // Each session's subagents, by session id, for SendMessage and ListAgents.
    const rosters = new Map<string, Roster>()
    $.capability.provide('subagents', (sessionId) => rosters.get(sessionId))
    // Each session's agent types, by session id, for the `@agent-<name>` mentions of its prompts.
    const typesOf = new Map<string, Map<string, AgentDefinition>>()
    agentMentions(on, (sessionId) => typesOf.get(sessionId))
    registerAgentsCommand(on, (sessionId) => typesOf.get(sessionId))
    on('session.end', (_$, e, next) => {
      runners.delete(e.sessionId)
      rosters.delete(e.sessionId)
      typesOf.delete(e.sessionId)
      return next(e)
    })
    const main: MainAgents = new Map()
    registerMainAgent(on, main)
    // The output files of the subagents running now, by agent id: each of their messages goes to its file.
    const logs = new Map<string, OutputLog>()
    const progress = new AgentProgress(opts.clock ?? $.clock)
    on('session.message', async ($, e, next) => {
      const log = e.agentId ? logs.get(e.agentId) : undefined
      const line = log ? progressLine(e.message) : undefined
      if (line) log!.write(line)
      if (e.agentId) await progress.seen($, e.agentId, e.message)
      return next(e)
    })
    on('session.start', async ($, e, next) => {
      const agents = await loadAgents(e.cwd, opts.agents, (m) => $.log.warn(m), opts.home ?? ($.env.get('HOME') || undefined), loadedPlugins($), opts.fileAgents ? settingSources($) : new Set())
      // Claude Code's switch for SDK hosts that bring their own agent types: the built-in ones go.
      if (envTrue($.env.get('CLAUDE_AGENT_SDK_DISABLE_BUILTIN_AGENTS'))) {
        for (const a of [...agents.values()]) if (a.scope === 'built-in') agents.delete(a.name)
      }
      const flags = await launchFlags($)
      for (const a of sdkAgents(flags.agents, (m) => $.log.warn(m))) agents.set(a.name, a)
      for (const a of agents.values()) await $.agent.register({ name: a.name, description: a.description })
      typesOf.set(e.sessionId, agents)
      hooks = hooksOf(agents)
      const spawn = $.agent.spawn as unknown as (req: SpawnRequest) => Promise<SpawnAnswer>
      const forwardText = flags.forwardSubagentText === true
      // As in Claude Code, the environment switch turns summaries off even when the option asks for them.
      const summaries = flags.agentProgressSummaries === true && !envTrue($.env.get('CLAUDE_CODE_DISABLE_AGENT_PROGRESS_SUMMARIES'))
      const roster = new Roster({ $, spawn, logs, forwardText, progress, summaries }, e.sessionId, opts.maxFinishedAgents)
      rosters.set(e.sessionId, roster)
      const call = async (i: AgentRunInput, ctx: ToolContext, heard?: (r: SubagentResult) => void): Promise<ToolOutput> => {
        const type = i.subagent_type ?? 'general-purpose'
        const def = findAgent(agents, type)
        if (!def) return failure(`Agent type "${type}" not found. Available agent types: ${[...agents.keys()].join(', ') || 'none'}`)
        return callAgent({ $, spawn, logs, roster, forwardText, progress, summaries }, def, i, ctx, heard)
      }
      const foregroundOnly = backgroundOff($.env.all())
      await registerTool($, {
        name: 'Agent', aliases: ['Task'], traits: { spawnsAgents: true }, description: describe(agents, foregroundOnly),
        input: foregroundOnly ? () => agentInput().omit({ run_in_background: true }) : agentInput,
        // Not offered then, a run_in_background the model still sends is dropped, not refused, as Claude Code does.
        ...(foregroundOnly ? { coerceInput: withoutBackground } : {}),
        // A subagent's own calls are checked one by one; the Agent call itself runs beside other read-only calls.
        isReadOnly: true,
        call,
      })
      runners.set(e.sessionId, async (i, ctx) => {
        let heard: SubagentResult | undefined
        const output = await call(i, ctx, (r) => { heard = r })
        const content = (output.result as { content?: { text?: unknown }[] } | undefined)?.content
        const report = typeof content?.[0]?.text === 'string' ? content[0].text : undefined
        if (report === undefined || output.isError) return { output }
        return { output, report, ...(heard ? { agentId: heard.agentId, toolNames: heard.toolNames } : {}) }
      })
      const result = await next(e)
      if (typeof flags.agent === 'string') {
        const agent = findAgent(agents, flags.agent)
        if (agent) await startMainAgent($, main, e.sessionId, agent)
        else $.log.error(`the agent option names "${flags.agent}", which is no agent type of this session (${[...agents.keys()].join(', ')}); the session runs as itself`)
      }
      return result
    })
  },
})

interface LaunchFlags { agents?: unknown; agent?: unknown; forwardSubagentText?: unknown; agentProgressSummaries?: unknown }

/** The launch options this mod reads: query()'s `agents`, `agent`, `forwardSubagentText` and `agentProgressSummaries`. */
async function launchFlags($: ModApi): Promise<LaunchFlags> {
  try {
    return ((await $.settings.read({ source: 'flag' })) ?? {}) as LaunchFlags
  } catch {
    return {}
  }
}
