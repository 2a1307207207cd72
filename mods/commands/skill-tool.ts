import { z } from 'zod'
import type { ToolContext, ToolOutput } from '../../core/tools/tool.js'
import type { AgentRunner } from '../_shared/agent-runner.js'
import { failure, type BuiltinTool } from '../_shared/register-tool.js'
import type { PromptCommand } from './definitions.js'
import { ShellLineRefused } from './shell-expansion.js'
import { builtinInput } from '../_shared/builtin-input.js'

const input = builtinInput('Skill', () => z.object({
  skill: z.string().min(1).describe('The name of the skill to run, as the skills listing gives it (a leading "/" is allowed)'),
  args: z.string().optional().describe('Arguments for the skill, as a person would type them after /name'),
}))

const DESCRIPTION = `Runs a skill: a packaged set of instructions for a particular kind of task. The skills available are listed in the system prompt under "# Skills".
- Call it as soon as a task matches a skill's description, before working on the task, and follow the instructions that come after its result.
- Pass the skill's name, and in args anything the skill should work on.
- Do not call it for a skill whose instructions an earlier Skill result in this conversation already holds.`

/**
 * The Skill tool: the model asks for a skill by name; the result says it launches and the
 * rendered instructions follow it (spec loop-and-sdk §6.3). The same skill with the same rendered
 * text twice in a session is followed by a short note instead of instructions the conversation
 * already holds.
 */
export function skillTool(
  skills: ReadonlyMap<string, PromptCommand>,
  /** Renders the skill for the one who called it: the main conversation, or the subagent `agentId`. */
  expand: (def: PromptCommand, args: string, agentId?: string) => Promise<string>,
  agents?: () => AgentRunner | undefined,
): BuiltinTool<ReturnType<typeof input>> {
  const given = new Set<string>()
  return {
    name: 'Skill', description: DESCRIPTION, input, isReadOnly: false,
    call: async (i, ctx): Promise<ToolOutput> => {
      const name = i.skill.trim().replace(/^\//, '')
      const def = skills.get(name)
      if (!def) return failure(`Unknown skill "${name}". Skills: ${listed(skills)}`)
      if (def.unlisted) return failure(`The skill "${name}" is not enabled for this session: the skills option lists only ${listed(skills)}.`)
      if (def.override === 'off' || def.override === 'user-invocable-only') return failure(`The skill "${name}" is turned off for the model by the settings' skillOverrides.`)
      if (!def.modelInvocable) return failure(`The skill "${name}" is run only by the user, as /${name}.`)
      let text: string
      try {
        text = await expand(def, i.args ?? '', ctx.agentId)
      } catch (err) {
        if (err instanceof ShellLineRefused) return failure(`The skill "${name}" did not run: ${err.message}.`)
        throw err
      }
      const run = def.fork ? agents?.() : undefined
      if (def.fork && run) return forked(run, def, name, text, ctx)
      const result = { success: true, commandName: def.name }
      const key = `${def.name}\u0000${text}`
      const again = given.has(key)
      given.add(key)
      // As in Claude Code, the result only says the skill starts; its text follows as the conversation's own.
      return { result, text: `Launching skill: ${name}`, followUp: again ? `The skill "${name}" is already loaded: follow the instructions given above.` : text }
    },
  }
}

/** The skills the model may run, by name, for a refusal to list. */
function listed(skills: ReadonlyMap<string, PromptCommand>): string {
  return [...new Set([...skills.values()].filter((s) => s.modelInvocable).map((s) => s.name))].sort().join(', ') || '(none)'
}

/**
 * A `context: fork` skill: its instructions go to a subagent of its own as the task, and the model
 * gets the subagent's report (spec loop-and-sdk §6.2, as Claude Code words it), or the receipt of
 * one run in the background. Without a mod that runs subagents it runs as any skill does.
 */
async function forked(run: AgentRunner, def: PromptCommand, name: string, text: string, ctx: ToolContext): Promise<ToolOutput> {
  const background = def.fork?.background === true
  const { output, report, agentId, toolNames = [] } = await run({
    description: `/${name}`, prompt: text, subagent_type: def.fork?.agent ?? 'general-purpose',
    // Said either way: unasked, an Agent call of the main conversation would run in the background.
    ...(def.model ? { model: def.model } : {}), run_in_background: background, skill: { description: def.description },
  }, ctx)
  if (report === undefined) return output
  // As in Claude Code, the model is told first which tools the subagent used to reach its report.
  const toolsUsedLine = toolNames.length > 0 ? `<tools-used-before-summary>${toolNames.join(', ')}</tools-used-before-summary>` : undefined
  return {
    result: { success: true, commandName: def.name, status: 'forked', ...(agentId ? { agentId } : {}), result: report, ...(toolsUsedLine ? { toolsUsedLine } : {}) },
    text: `${toolsUsedLine ? `${toolsUsedLine}\n` : ''}Skill "${name}" completed (forked execution).\n\nResult:\n${report}`,
  }
}
