import type { SpawnedAgent } from '../../core/mod/contracts.js'
import type { ToolContext } from '../../core/tools/tool.js'
import type { SendOutcome, SubagentInfo, Subagents } from '../_shared/subagents.js'
import { OutputLog } from './output-log.js'
import { endRun, outcomeOf, type AgentRun } from './run-agent.js'

/** How many ended subagents a session keeps resumable by default (the agent mod's maxFinishedAgents). */
export const MAX_FINISHED_AGENTS = 50

const releasedText = (id: string, max: number) =>
  `Agent ${id} ended and was released: this session keeps the last ${max} finished subagents to resume. Start a new agent, with what it needs from this one's report.`

interface Entry extends SubagentInfo {
  handle: SpawnedAgent
  /** The tool call that started it: a resume it asks for itself reports under it. */
  toolUseId: string
  /** Where it works (its progress names files relative to it). */
  cwd: string
  /** Messages it was stopped before reading: the next message that resumes it carries them first. */
  kept: string[]
}

/**
 * One session's subagents, running and ended, for SendMessage and ListAgents (the `subagents`
 * capability). A message to a running one joins its next tool round; one that ended is resumed
 * from its history with the message, as a background task of the registry, so the stream's task
 * messages, TaskStop and the cap on background work cover the resumed run as they cover the first.
 */
export class Roster implements Subagents {
  private readonly entries = new Map<string, Entry>()
  /** The ids of the ended ones, the earliest to end first: past `maxFinished` the first are released. */
  private finished: string[] = []
  /** Released ones: a message to them is answered, not taken for an unknown name. */
  private readonly released = new Set<string>()

  /**
   * `maxFinished`: how many ended subagents stay resumable. Each holds its whole child session, so a
   * long session with hundreds of them keeps only the latest; the others are released.
   */
  constructor(private readonly run: AgentRun, private readonly sessionId: string, private readonly maxFinished = MAX_FINISHED_AGENTS) {}

  add(handle: SpawnedAgent, info: Omit<SubagentInfo, 'status' | 'startTime' | 'agentId'> & { toolUseId: string; cwd: string }): void {
    this.entries.set(handle.agentId, { ...info, agentId: handle.agentId, handle, status: 'running', startTime: Date.now(), kept: [] })
  }

  /**
   * Its run ended. Messages sent too late for its last tool round are not lost: it runs again
   * with them, as Claude Code resumes an agent that finished before it read a message. One that
   * was stopped stays stopped (a stop, or the session's end, is not undone); its unread messages
   * wait for the next message that resumes it.
   */
  ended(agentId: string, status: SubagentInfo['status']): void {
    const entry = this.entries.get(agentId)
    if (!entry) return
    entry.status = status
    const left = entry.handle.untold()
    if (status === 'stopped') entry.kept.push(...left)
    else if (left.length > 0) void this.resume(entry, left.join('\n\n'), entry.toolUseId)
    // A resume started above has it running again (its status is set before the resume awaits).
    this.finished = this.finished.filter((id) => id !== agentId)
    if (entry.status !== 'running') this.finished.push(agentId)
    this.release()
  }

  private release(): void {
    while (this.finished.length > this.maxFinished) {
      const id = this.finished.shift()!
      const entry = this.entries.get(id)
      if (!entry || entry.status === 'running') continue
      this.entries.delete(id)
      this.released.add(id)
      entry.handle.release()
    }
  }

  list(): SubagentInfo[] {
    return [...this.entries.values()].map(({ handle: _h, toolUseId: _t, kept: _k, cwd: _c, ...info }) => info)
  }

  notify(agentId: string, text: string): boolean {
    const entry = this.entries.get(agentId)
    if (entry?.status !== 'running') return false
    entry.handle.tell(text, { event: true })
    return true
  }

  async send(to: string, text: string, ctx: ToolContext): Promise<SendOutcome> {
    const entry = this.entries.get(to)
    if (!entry && this.released.has(to)) return { refused: releasedText(to, this.maxFinished) }
    if (!entry) return { unknown: true }
    if (entry.status === 'running') {
      entry.handle.tell(text)
      return { delivered: entry.agentId }
    }
    return this.resume(entry, [...entry.kept, text].join('\n\n'), ctx.toolUseId)
  }

  private async resume(entry: Entry, text: string, toolUseId: string): Promise<SendOutcome> {
    const { $, logs } = this.run
    const registry = $.capability.use('tasks')?.(this.sessionId)
    if (!registry) return { refused: `Agent ${entry.agentId} has ended, and resuming it needs the tasks mod (it runs the resumed agent in the background), which this distribution does not load.` }
    const refused = registry.refusal()
    if (refused) return { refused }
    const { agentId: id, description } = entry
    const was = entry.status
    entry.status = 'running'
    const log = new OutputLog(registry.outputFileFor(id), (m) => $.log.warn(m))
    logs.set(id, log)
    this.run.progress?.start(id, entry.cwd, { description, ...(this.run.summaries ? { summarize: { $, fork: (r, o) => entry.handle.fork(r, o), keep: (t) => registry.setActivity(id, t) } } : {}) })
    const launched = await registry.launch({
      id, type: 'local_agent', description, background: true, toolUseId, subagentType: entry.type, prompt: text, holdsSession: true,
      run: async (task) => {
        let report
        try {
          report = await entry.handle.resume(text, task.signal)
        } finally {
          await endRun(this.run, registry, id, log, report)
        }
        return outcomeOf(report, description, undefined)
      },
    })
    if ('refused' in launched) {
      entry.status = was
      logs.delete(id)
      this.run.progress?.end(id)
      return { refused: launched.refused }
    }
    entry.kept = []
    this.finished = this.finished.filter((f) => f !== id)
    void launched.task.done.then(({ record }) => this.ended(id, record.status === 'running' ? 'completed' : record.status))
    return { resumed: id }
  }
}
