import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'

export type TaskStatus = 'pending' | 'in_progress' | 'completed'

export interface Task {
  id: string
  subject: string
  description: string
  activeForm?: string
  owner?: string
  status: TaskStatus
  blocks: string[]
  blockedBy: string[]
  metadata?: Record<string, unknown>
}

/**
 * One task list on disk, as Claude Code keeps it: `<dir>/<id>.json` per task and, once a task is
 * deleted (or a hook refused its creation), `.highwatermark` holding the highest id deleted, so an
 * id is never reused. Every call reads the files again: another session sharing the list
 * (`CLAUDE_CODE_TASK_LIST_ID`) may have changed them. A store made with `fresh` empties the
 * folder before its first use, not at session start.
 */
export class TaskStore {
  private cleared: Promise<void> | undefined

  constructor(readonly dir: string, private readonly fresh = false) {}

  private ready(): Promise<void> {
    if (!this.fresh) return Promise.resolve()
    this.cleared ??= rm(this.dir, { recursive: true, force: true })
    return this.cleared
  }

  async list(): Promise<Task[]> {
    await this.ready()
    let names: string[]
    try {
      names = await readdir(this.dir)
    } catch {
      return []
    }
    const ids = names.filter((n) => /^\d+\.json$/.test(n)).map((n) => n.slice(0, -5)).sort((a, b) => Number(a) - Number(b))
    const tasks = await Promise.all(ids.map((id) => this.get(id)))
    return tasks.filter((t): t is Task => t !== undefined)
  }

  async get(id: string): Promise<Task | undefined> {
    if (!/^\d+$/.test(id)) return undefined
    await this.ready()
    try {
      return JSON.parse(await readFile(join(this.dir, `${id}.json`), 'utf8')) as Task
    } catch {
      return undefined
    }
  }

  async create(fields: Omit<Task, 'id' | 'status' | 'blocks' | 'blockedBy'>): Promise<Task> {
    await this.ready()
    await mkdir(this.dir, { recursive: true })
    const mark = join(this.dir, '.highwatermark')
    const last = Number((await readFile(mark, 'utf8').catch(() => '0')).trim()) || 0
    const highest = Math.max(last, ...(await this.list()).map((t) => Number(t.id)))
    const task: Task = { id: String(highest + 1), ...fields, status: 'pending', blocks: [], blockedBy: [] }
    await this.put(task)
    return task
  }

  async put(task: Task): Promise<void> {
    await this.ready()
    await mkdir(this.dir, { recursive: true })
    await writeFile(join(this.dir, `${task.id}.json`), JSON.stringify(task, null, 2))
  }

  /** Removes the task and every other task's reference to it; `.highwatermark` keeps its id used. */
  async delete(id: string): Promise<void> {
    await this.ready()
    const mark = join(this.dir, '.highwatermark')
    const last = Number((await readFile(mark, 'utf8').catch(() => '0')).trim()) || 0
    await writeFile(mark, String(Math.max(last, Number(id))))
    await rm(join(this.dir, `${id}.json`), { force: true })
    for (const t of await this.list()) {
      if (!t.blocks.includes(id) && !t.blockedBy.includes(id)) continue
      await this.put({ ...t, blocks: t.blocks.filter((b) => b !== id), blockedBy: t.blockedBy.filter((b) => b !== id) })
    }
  }
}
