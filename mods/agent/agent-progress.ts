import { isAbsolute, relative } from 'node:path'
import type { SDKMessage } from '../../core/loop/messages.js'
import type { ModApi } from '../../core/mod/api.js'

interface Run { startedAt: number; toolUses: number; cwd: string }

/**
 * How far each subagent that is a task has got, as Claude Code shows it: before each of its tool
 * calls the stream gets a task_progress saying what it is doing (`Reading src/a.ts`), the tool,
 * and its counts so far (tokens in its context, tool calls, time since it started).
 */
export class AgentProgress {
  private readonly runs = new Map<string, Run>()

  start(agentId: string, cwd: string): void {
    this.runs.set(agentId, { startedAt: Date.now(), toolUses: 0, cwd })
  }

  end(agentId: string): void {
    this.runs.delete(agentId)
  }

  /** One of the subagent's messages, as it is recorded: just before the stream shows it. */
  async seen($: ModApi, agentId: string, m: SDKMessage): Promise<void> {
    const run = this.runs.get(agentId)
    if (!run || m.type !== 'assistant') return
    const u = m.message.usage
    const tokens = u.input_tokens + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0) + u.output_tokens
    for (const block of m.message.content) {
      if (block.type !== 'tool_use') continue
      run.toolUses++
      await $.task.progress({
        taskId: agentId, description: activity(block.name, block.input as Record<string, unknown>, run.cwd), lastToolName: block.name,
        usage: { total_tokens: tokens, tool_uses: run.toolUses, duration_ms: Date.now() - run.startedAt },
      })
    }
  }
}

/** A tool call in a few words, as Claude Code words the ones it names; any other by the tool's name. */
function activity(tool: string, input: Record<string, unknown>, cwd: string): string {
  const text = (key: string) => (typeof input[key] === 'string' ? input[key] : '')
  const path = (key: string) => {
    const p = text(key)
    const rel = isAbsolute(p) ? relative(cwd, p) : p
    return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : p
  }
  switch (tool) {
    case 'Bash': return `Running ${text('description') || text('command')}`
    case 'Read': return `Reading ${path('file_path')}`
    case 'Write': return `Writing ${path('file_path')}`
    case 'Edit': return `Editing ${path('file_path')}`
    case 'Glob': return `Finding ${text('pattern')}`
    case 'Grep': return `Searching for ${text('pattern')}`
    case 'WebFetch': return `Fetching ${text('url')}`
    default: return tool
  }
}
