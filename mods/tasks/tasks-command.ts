import type { TaskRecord, TaskRegistry } from '../_shared/tasks.js'

const KINDS: Record<TaskRecord['type'], string> = { local_bash: 'shell', local_agent: 'subagent' }

/**
 * `/tasks` (Claude Code's other name: `/bashes`): the session's background work as text, as
 * Claude Code's panel lists it — each shell and subagent with its id, status, how long it ran and
 * its output file, the finished ones included, and what a running subagent is doing when it is
 * summarised (agentProgressSummaries). `/tasks stop <id>` stops one that runs, as the
 * panel's stop key does; the model is told with a notification turn, as when a task ends by itself,
 * since it started the task and did not stop it.
 */
export async function tasksCommand(registry: TaskRegistry | undefined, args: string, now: number): Promise<string> {
  if (!registry) return 'Background tasks are not kept in this session.'
  const [verb = '', id, ...rest] = args.trim().split(/\s+/).filter(Boolean)
  if (verb === '') return listText(registry.list(), now)
  if (verb !== 'stop' || id === undefined || rest.length > 0) return 'Usage: /tasks, to list the tasks; /tasks stop <id>, to stop one that runs.'
  const record = registry.get(id)
  if (!record) return `No task has the id ${id}. /tasks lists them.`
  if (record.status !== 'running') return `Task ${id} is not running (${record.status}).`
  await registry.stop(id)
  return `Stopped task ${id} (${record.description}).`
}

function listText(records: readonly TaskRecord[], now: number): string {
  if (records.length === 0) return 'No tasks in this session.'
  const sorted = [...records].sort((a, b) => a.startTime - b.startTime)
  const running = sorted.filter((r) => r.status === 'running').length
  const rows = sorted.map((r) => {
    const what = r.type === 'local_bash' && r.command ? r.command : `${r.description}${r.subagentType ? ` (${r.subagentType})` : ''}`
    const cells = [r.id, KINDS[r.type], r.status, duration((r.endTime ?? now) - r.startTime)]
    // A running subagent's latest progress summary, as Claude Code's panel shows it on its row.
    const doing = r.status === 'running' && r.activity ? [`    now: ${oneLine(r.activity)}`] : []
    return [`  ${cells.join('  ')}  ${oneLine(what)}`, ...doing, `    output: ${r.outputFile}`].join('\n')
  })
  return [`Tasks (${records.length}, ${running} running):`, ...rows].join('\n')
}

function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000))
  if (s < 60) return `${s}s`
  const m = Math.floor(s / 60)
  return m < 60 ? `${m}m ${s % 60}s` : `${Math.floor(m / 60)}h ${m % 60}m`
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > 100 ? `${line.slice(0, 97)}...` : line
}
