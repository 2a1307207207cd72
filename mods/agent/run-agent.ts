import { randomHex } from '../../core/random.js'
import { z } from 'zod'
import { describeError } from '../../core/errors.js'
import type { SpawnAnswer, SpawnRequest, SubagentResult } from '../../core/mod/contracts.js'
import type { ModApi } from '../../core/mod/api.js'
import type { SDKMessage } from '../../core/loop/messages.js'
import type { ToolContext, ToolOutput } from '../../core/tools/tool.js'
import { EFFORT_LEVELS } from '../../core/model/capabilities.js'
import { failure } from '../_shared/register-tool.js'
import type { TaskOutcome, TaskRegistry } from '../_shared/tasks.js'
import type { AgentDefinition } from './definitions.js'
import { handBack, launchReceipt, worktreeLine } from './hand-back.js'
import { OutputLog } from './output-log.js'
import { finishWorktree, type KeptWorktree, type Worktree } from '../_shared/worktree.js'
import { isolate, type HookWorktree } from './isolate.js'
import { backgroundOff } from '../_shared/background-off.js'
import type { Roster } from './roster.js'
import type { AgentProgress } from './agent-progress.js'
import type { AgentRunInput } from '../_shared/agent-runner.js'
import { builtinInput } from '../_shared/builtin-input.js'

export const agentInput = builtinInput('Agent', () => z.object({
  description: z.string().describe('What the agent is doing, in three to five words'),
  prompt: z.string().describe('The whole task, as the agent should carry it out'),
  subagent_type: z.string().optional().describe('The type of agent to use (default: general-purpose)'),
  model: z.string().optional().describe('A model for this agent (an alias such as sonnet, opus or haiku, or an id); default: the agent type\'s, else the current model'),
  effort: z.enum(EFFORT_LEVELS).optional().describe('The reasoning effort of the agent\'s requests; default: the session\'s'),
  run_in_background: z.boolean().optional().describe('Whether the agent runs in the background (the default): the call returns at once, and its report comes back to you on its own when it is done. false: the call waits for the report'),
  isolation: z.enum(['worktree']).optional().describe('"worktree": the agent works in a git worktree of its own (a copy of the repository on a new branch), kept if it changes anything'),
}))
export type AgentInput = z.output<ReturnType<typeof agentInput>>

export interface AgentRun {
  $: ModApi
  spawn: (req: SpawnRequest) => Promise<SpawnAnswer>
  /** The output files of running subagents by agent id; the mod feeds them each message (session.message). */
  logs: Map<string, OutputLog>
  /** The session's subagents, for SendMessage: each one started is added, and told when it ends. */
  roster?: Roster
  /** A foreground subagent's text and thinking go on the stream too (forwardSubagentText). */
  forwardText?: boolean
  /** Its task's progress on the stream: each subagent that is a task is started here, and ended by endRun. */
  progress?: AgentProgress
  /** Its running subagents are summarised now and then (agentProgressSummaries). */
  summaries?: boolean
}

const newAgentId = () => `a${randomHex(8)}`

/**
 * One Agent call. In the foreground the call waits for the report and hands it back framed; in
 * the background (or once Query.backgroundTasks moved it there) it answers with a launch receipt
 * and the report comes back as a turn of its own. With the tasks mod loaded either way is a task
 * of the session's registry, with its output file; without it only the foreground is offered.
 */
export async function callAgent(
  run: AgentRun, def: AgentDefinition, asked: AgentInput & Pick<AgentRunInput, 'skill'>, ctx: ToolContext,
  /** Told the subagent's result once it ends (the runner of another mod's subagent reads it). */
  heard?: (r: SubagentResult) => void,
): Promise<ToolOutput> {
  const { $ } = run
  // Where nothing runs in the background every agent is waited for, whatever the call or its type asked.
  const i = backgroundOff($.env.all()) ? { ...asked, run_in_background: false } : asked
  const registry = $.capability.use('tasks')?.(ctx.sessionId)
  if (i.run_in_background && !registry) return failure('run_in_background needs the tasks mod (it keeps the session\'s tasks), which this distribution does not load. Run the agent in the foreground.')
  const refused = i.run_in_background ? registry!.refusal() : undefined
  if (refused) return failure(refused)
  // Unasked, the main conversation's call runs in the background, as Claude Code's does since
  // 2.1.198 (spec §7): where the session keeps tasks and has room for one more, else it waits for
  // the report. A subagent's own call, and an agent type that says `background: false`, wait.
  const byDefault = registry !== undefined && ctx.agentId === undefined && registry.refusal() === undefined
  const id = newAgentId()
  let worktree: Worktree | HookWorktree | undefined
  if (i.isolation === 'worktree') {
    try {
      worktree = await isolate($, ctx.cwd, id)
    } catch (err) {
      return failure(`The agent could not be isolated: ${describeError(err)}`)
    }
    await permissionsDirs($, 'addDirectories', worktree.path)
  }
  let background = i.run_in_background ?? def.background ?? byDefault
  // The call's own abort (an interrupted turn) stops the agent only while the call waits on it:
  // through the registry once it holds the task, so it ends `stopped`.
  const stop = new AbortController()
  let registered = false
  const onCallAbort = () => {
    if (background) return
    stop.abort(ctx.signal.reason)
    if (registered) void registry?.stop(id)
  }
  ctx.signal.addEventListener('abort', onCallAbort, { once: true })
  const log = registry ? new OutputLog(registry.outputFileFor(id), (m) => $.log.warn(m)) : undefined
  if (log) run.logs.set(id, log)
  // The subagent's run waits for its task's start to be on the stream (or for there being no task).
  let announced!: () => void
  const ready = new Promise<void>((resolve) => { announced = resolve })
  const prompt = [i.prompt, ...(worktree ? [worktreeNote(worktree)] : []), ...await preloadedSkills($, def)].join('\n\n')
  const started = await run.spawn({
    agentId: id, prompt, description: i.description, subagentType: def.name,
    model: i.model ?? def.model, tools: def.tools, disallowedTools: def.disallowedTools, systemPrompt: def.prompt, maxTurns: def.maxTurns,
    parentToolUseId: ctx.toolUseId, parentAgentId: ctx.agentId, signal: stop.signal, background: background && registry !== undefined,
    // As Claude Code's, the stream gets a foreground subagent's tool calls and results only (enough to
    // show it is working) unless forwardSubagentText asks for its text and thinking, and its request
    // retries; a background one's all but its retries.
    shown: (m) => (background ? !isRetry(m) : run.forwardText === true || !isProse(m)),
    // Its prompt too, as Claude Code shows a foreground subagent's (never a background one's).
    ready, showPrompt: !background,
    ...(def.omitClaudeMd ? { omitClaudeMd: true } : {}), ...(i.skill ? { taskDescription: i.skill.description } : {}),
    ...(i.effort ?? def.effort ? { effort: i.effort ?? def.effort } : {}), ...(worktree ? { cwd: worktree.cwd } : {}),
  })
  let report: SubagentResult | undefined
  let kept: KeptWorktree | undefined
  // Waits for the subagent, then writes its report to the output file and ends its worktree.
  const finish = async (): Promise<SubagentResult | undefined> => {
    try {
      if (!('deny' in started)) report = await started.done
      if (report) heard?.(report)
    } finally {
      ctx.signal.removeEventListener('abort', onCallAbort)
      await endRun(run, registry, id, log, report)
      if (worktree) kept = await endWorktree($, worktree)
    }
    return report
  }
  if ('deny' in started) {
    announced()
    await finish()
    return failure(started.deny)
  }
  run.roster?.add(started, { type: def.name, description: i.description, background, toolUseId: ctx.toolUseId, cwd: worktree?.cwd ?? ctx.cwd })
  if (!registry) {
    announced()
    const r = (await finish())!
    run.roster?.ended(id, r.isError ? 'failed' : 'completed')
    return reportOutput(r, def, started.model, kept)
  }
  run.progress?.start(id, worktree?.cwd ?? ctx.cwd, { description: i.description, ...(run.summaries ? { summarize: { $, fork: started.fork, keep: (t: string) => registry.setActivity(id, t) } } : {}) })
  // A fork skill waited for is part of its Skill call; one in the background is a task of its own.
  const ambient = i.skill !== undefined && !background
  const launched = await registry.launch({
    id, type: 'local_agent', description: i.description, background, toolUseId: ctx.toolUseId, subagentType: def.name, prompt: i.prompt, spawnDepth: started.depth,
    holdsSession: true, ...(ambient ? { ambient: true } : {}),
    toBackground: () => (background = true),
    run: async (task) => {
      task.signal.addEventListener('abort', () => stop.abort(task.signal.reason), { once: true })
      if (task.signal.aborted) stop.abort(task.signal.reason)
      const { usage, ...outcome } = outcomeOf((await finish())!, i.description, kept)
      // A fork skill's end is told by its name alone, without counts, as Claude Code tells it.
      return ambient ? { ...outcome, notice: { summary: i.description } } : { ...outcome, ...(usage ? { usage } : {}) }
    },
  }).finally(announced)
  registered = !('refused' in launched)
  // Once the registry has it ended, a message sent to it resumes it (a task of the same id).
  if (!('refused' in launched)) void launched.task.done.then(({ record }) => run.roster?.ended(id, record.status === 'running' ? 'completed' : record.status))
  if (ctx.signal.aborted) onCallAbort()
  if ('refused' in launched) {
    stop.abort(new Error(launched.refused))
    await finish().catch(() => {})
    return failure(launched.refused)
  }
  const receipt = async () => ({
    result: { status: 'async_launched', isAsync: true, agentId: id, description: i.description, prompt: i.prompt, outputFile: launched.task.outputFile },
    text: launchReceipt(id, launched.task.outputFile, (await $.tool.list()).some((t) => t.name === 'SendMessage')),
  })
  if (background) return receipt()
  const moved = await Promise.race([launched.task.done.then(() => false), launched.task.backgrounded.then(() => true)])
  if (moved) return receipt()
  const { record } = await launched.task.done
  if (record.status === 'stopped' || !report) return failure(`The ${def.name} subagent was stopped before it finished; what it did so far is in ${record.outputFile}.`)
  return reportOutput(report, def, started.model, kept)
}

/**
 * The instructions of the skills its agent type preloads, to follow its task: a skill that does not
 * exist, or a session without the commands mod, is named in the log and left out.
 */
async function preloadedSkills($: ModApi, def: AgentDefinition): Promise<string[]> {
  if (!def.skills) return []
  const commands = $.capability.use('commands')
  const texts: string[] = []
  for (const name of def.skills) {
    const text = await commands?.skillText(name)
    if (text === undefined) $.log.warn(`agent type "${def.name}" (${def.source}): skill "${name}" ${commands ? 'is not a skill of this session' : 'needs the commands mod, which is not loaded'}; not preloaded`)
    else texts.push(text)
  }
  return texts
}

/** The result of a foreground run: the shape hooks see as tool_response (spec settings-hooks §2.31), and the framed report the model reads. */
function reportOutput(r: SubagentResult, def: AgentDefinition, model: string, kept: KeptWorktree | undefined): ToolOutput {
  const result = {
    status: 'completed', agentId: r.agentId, content: [{ type: 'text', text: r.text }], resolvedModel: model,
    totalDurationMs: r.durationMs, totalToolUseCount: r.toolUses,
    totalTokens: r.usage.input_tokens + r.usage.output_tokens, usage: r.usage, ...(kept ? { worktreePath: kept.path, ...(kept.branch ? { worktreeBranch: kept.branch } : {}) } : {}),
  }
  const report = r.text || `(the ${def.name} agent ended without a report: ${r.terminalReason})`
  return { result, text: handBack(report, { agentId: r.agentId, type: def.name, worktree: worktreeLine(kept) }), isError: r.isError }
}

export function outcomeOf(r: SubagentResult | undefined, description: string, kept: KeptWorktree | undefined): TaskOutcome {
  if (!r) return { status: 'failed', summary: `Agent "${description}" failed`, error: 'it ended without a report', notice: { summary: 'it ended without a report' } }
  const failed = r.isError
  return {
    status: failed ? 'failed' : 'completed',
    summary: `Agent "${description}" ${failed ? 'failed' : 'completed'}`,
    result: [r.text || `(no report: ${r.terminalReason})`, worktreeLine(kept)].filter(Boolean).join('\n\n'),
    ...(failed ? { error: r.text || String(r.terminalReason) } : {}),
    notice: failed ? { summary: r.text || String(r.terminalReason) } : { summary: r.text, report: true },
    usage: { total_tokens: r.usage.input_tokens + r.usage.output_tokens, tool_uses: r.toolUses },
  }
}

function worktreeNote(w: Worktree | HookWorktree): string {
  if ('byHook' in w) return `You work in an isolated worktree at ${w.path}, not in the project's own directory; it is kept for the caller when you finish.`
  return `You work in an isolated git worktree at ${w.path} (branch ${w.branch}), not in the project's own checkout. A worktree you leave unchanged is removed when you finish; one with commits or other changes is kept for the caller.`
}

async function endWorktree($: ModApi, w: Worktree | HookWorktree): Promise<KeptWorktree | undefined> {
  if ('byHook' in w) return { path: w.path, commits: 0, uncommitted: false }
  try {
    const ended = await finishWorktree(w, $.env.all())
    if ('kept' in ended) return ended.kept
    await permissionsDirs($, 'removeDirectories', w.path)
  } catch (err) {
    $.log.warn(`the worktree ${w.path} could not be ended: ${describeError(err)}`)
  }
  return undefined
}

/** The worktree counts as a working directory of the session while the agent runs there (the permissions mod's policy). */
async function permissionsDirs($: ModApi, type: 'addDirectories' | 'removeDirectories', dir: string): Promise<void> {
  try {
    await $.capability.use('permissions')?.persistUpdate({ type, directories: [dir], destination: 'session' })
  } catch (err) {
    $.log.warn(`the permissions mod did not take ${dir} as a working directory: ${describeError(err)}`)
  }
}

export type { TaskRegistry }

/**
 * What ends each run of a subagent, its first or a resumed one: what it left running in the
 * background stops (nobody is left to read or stop it), and its report closes its output file.
 */
export async function endRun(run: AgentRun, registry: TaskRegistry | undefined, id: string, log: OutputLog | undefined, report: SubagentResult | undefined): Promise<void> {
  await registry?.stopStartedBy(id)
  run.progress?.end(id)
  if (!log) return
  if (report) log.write(`\n--- report ---\n${report.text}`)
  await log.flush()
  run.logs.delete(id)
}

/** An assistant message of text or thinking alone: no tool call in it. */
function isProse(m: SDKMessage): boolean {
  return m.type === 'assistant' && m.message.content.every((b) => b.type === 'text' || b.type === 'thinking' || b.type === 'redacted_thinking')
}

/** The subagent's request being retried (its caller's stream shows it as progress of the call). */
function isRetry(m: SDKMessage): boolean {
  return m.type === 'system' && m.subtype === 'api_retry'
}
