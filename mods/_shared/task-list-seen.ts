export interface Shown {
  content: string
  status: string
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null

/**
 * The task list as a message stream reveals it, for front ends that show it as they show
 * TodoWrite's list (the terminal, ACP's plan). The tools' results carry single tasks (TaskCreate,
 * TaskUpdate) or the whole list (TaskList), so it keeps the list it has seen, and takes TaskList's
 * whole list when it runs.
 */
export class TaskListSeen {
  private readonly tasks = new Map<string, Shown>()

  /** The list after a finished call of `name`, or undefined when the call is no task-list change. */
  after(name: string, input: unknown, result: unknown): Shown[] | undefined {
    if (!isObject(result)) return undefined
    const i = isObject(input) ? input : {}
    if (name === 'TaskCreate' && isObject(result.task)) {
      const t = result.task
      this.tasks.set(String(t.id), { content: String(t.subject ?? ''), status: 'pending' })
    } else if (name === 'TaskUpdate' && result.success === true) {
      const id = String(result.taskId)
      const old = this.tasks.get(id)
      const change = isObject(result.statusChange) ? result.statusChange : undefined
      if (change?.to === 'deleted') this.tasks.delete(id)
      else if (old) this.tasks.set(id, { content: typeof i.subject === 'string' ? i.subject : old.content, status: typeof change?.to === 'string' ? change.to : old.status })
    } else if (name === 'TaskList' && Array.isArray(result.tasks)) {
      this.tasks.clear()
      for (const t of result.tasks.filter(isObject)) this.tasks.set(String(t.id), { content: String(t.subject ?? ''), status: String(t.status ?? 'pending') })
    } else {
      return undefined
    }
    return [...this.tasks.values()]
  }
}
