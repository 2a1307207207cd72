import type { LiveTaskInfo } from '../../core/mod/contracts.js'

// The hook input labels a task by what it is to a person (spec settings-hooks: shell, subagent, …),
// not by the stream's task_type (local_bash, local_agent).
const LABEL: Record<string, string> = { local_agent: 'subagent', local_bash: 'shell' }
const MAX_CHARS = 1000

function capped(text: string): string {
  return text.length > MAX_CHARS ? `${text.slice(0, MAX_CHARS)}... [+${text.length - MAX_CHARS} chars]` : text
}

/** Stop's and SubagentStop's `background_tasks`: the background tasks running as the turn ends. */
export function backgroundTasks(tasks: readonly LiveTaskInfo[]): Record<string, string>[] {
  return tasks.filter((t) => t.background).map((t) => ({
    id: t.id, type: LABEL[t.type] ?? t.type, status: t.status, description: capped(t.description),
    ...(t.subagentType ? { agent_type: t.subagentType } : {}),
  }))
}
