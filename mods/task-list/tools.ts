import { z } from 'zod'
import type { BuiltinTool } from '../_shared/register-tool.js'
import type { TaskHookRequest } from '../_shared/task-hooks.js'
import { failure } from '../_shared/register-tool.js'
import { CREATE, GET, LIST, UPDATE } from './descriptions.js'
import type { Task, TaskStore } from './store.js'
import { builtinInput } from '../_shared/builtin-input.js'

/** Fires TaskCreated / TaskCompleted; resolves to the refusal's feedback, if a hook refused. */
export type TaskHook = (req: Omit<TaskHookRequest, 'sessionId'>) => Promise<string | undefined>

const activeForm = z.string().describe('The task as an -ing phrase, shown while it is being worked on, e.g. "Fixing the build"')
const metadata = z.record(z.string(), z.unknown())

const createInput = builtinInput('TaskCreate', () => z.strictObject({
  subject: z.string().describe('A brief title for the task'),
  description: z.string().describe('What needs to be done'),
  activeForm: activeForm.optional(),
  metadata: metadata.describe('Any extra fields to keep with the task').optional(),
}))
const idInput = builtinInput('TaskGet', () => z.strictObject({ taskId: z.string().describe('The id of the task') }))
const updateInput = builtinInput('TaskUpdate', () => z.strictObject({
  taskId: z.string().describe('Which task to change (its id)'),
  subject: z.string().describe('New subject for the task').optional(),
  description: z.string().describe('New description for the task').optional(),
  activeForm: activeForm.optional(),
  status: z.enum(['pending', 'in_progress', 'completed', 'deleted']).describe('New status for the task').optional(),
  addBlocks: z.array(z.string()).describe('Ids of tasks that wait for this one to be completed').optional(),
  addBlockedBy: z.array(z.string()).describe('Ids of tasks that must be completed before this one can start').optional(),
  owner: z.string().describe('New owner for the task (an agent name)').optional(),
  metadata: metadata.describe('Fields to add to the task\'s metadata (null removes one)').optional(),
}))
type UpdateInput = z.output<ReturnType<typeof updateInput>>

const NOT_FOUND = 'Task not found'
const ids = (list: string[]) => list.map((id) => `#${id}`).join(', ')
const summary = (t: Task) => ({ id: t.id, subject: t.subject, description: t.description })

/** The four task-list tools over one store. Results and texts are Claude Code's. */
export function taskTools(store: TaskStore, hook: TaskHook | undefined): BuiltinTool<z.ZodType>[] {
  const tools = [
    tool({
      name: 'TaskCreate', description: CREATE, input: createInput, isReadOnly: false,
      async call(input, ctx) {
        const task = await store.create(input)
        const refused = await hook?.({ event: 'TaskCreated', task: summary(task), ...(ctx.agentId ? { agentId: ctx.agentId } : {}) })
        // A refused creation is rolled back; its id stays used.
        if (refused !== undefined) {
          await store.delete(task.id)
          // An error result reads without the hook's trailing newline, as in Claude Code.
          return failure(refused.trimEnd())
        }
        return { result: { task: summary(task) }, text: `Task #${task.id} created successfully: ${task.subject}` }
      },
    }),
    tool({
      name: 'TaskGet', description: GET, input: idInput, isReadOnly: true,
      async call({ taskId }) {
        const t = await store.get(taskId)
        if (!t) return { result: { task: null }, text: NOT_FOUND }
        const lines = [`Task #${t.id}: ${t.subject}`, `Status: ${t.status}`, `Description: ${t.description}`]
        if (t.blockedBy.length > 0) lines.push(`Blocked by: ${ids(t.blockedBy)}`)
        if (t.blocks.length > 0) lines.push(`Blocks: ${ids(t.blocks)}`)
        return { result: { task: { ...summary(t), status: t.status, blocks: t.blocks, blockedBy: t.blockedBy } }, text: lines.join('\n') }
      },
    }),
    tool({
      name: 'TaskList', description: LIST, input: () => z.strictObject({}), isReadOnly: true,
      async call() {
        const all = await store.list()
        const open = new Set(all.filter((t) => t.status !== 'completed').map((t) => t.id))
        // Only tasks still open block: a completed blocker no longer counts.
        const tasks = all.map((t) => ({ id: t.id, subject: t.subject, status: t.status, ...(t.owner ? { owner: t.owner } : {}), blockedBy: t.blockedBy.filter((id) => open.has(id)) }))
        const text = tasks.map((t) => `#${t.id} [${t.status}] ${t.subject}${t.owner ? ` (${t.owner})` : ''}${t.blockedBy.length > 0 ? ` [blocked by ${ids(t.blockedBy)}]` : ''}`).join('\n')
        return { result: { tasks }, text: text || 'No tasks found' }
      },
    }),
    tool({
      name: 'TaskUpdate', description: UPDATE, input: updateInput, isReadOnly: false,
      call: (input, ctx) => update(store, input, ctx.agentId ? (req) => hook?.({ ...req, agentId: ctx.agentId }) ?? Promise.resolve(undefined) : hook),
    }),
  ]
  return tools as unknown as BuiltinTool<z.ZodType>[]
}

async function update(store: TaskStore, input: UpdateInput, hook: TaskHook | undefined) {
  const { taskId } = input
  const old = await store.get(taskId)
  if (!old) return { result: { success: false, taskId, updatedFields: [], error: NOT_FOUND }, text: NOT_FOUND }
  if (input.status === 'deleted') {
    await store.delete(taskId)
    return { result: { success: true, taskId, updatedFields: ['deleted'], statusChange: { from: old.status, to: 'deleted' } }, text: `Updated task #${taskId} deleted` }
  }
  if (input.status === 'completed' && old.status !== 'completed') {
    // A refused completion changes nothing, the other fields included; the model reads why.
    const refused = await hook?.({ event: 'TaskCompleted', task: summary(old) })
    if (refused !== undefined) return { result: { success: false, taskId, updatedFields: [], error: refused }, text: refused }
  }
  const task: Task = { ...old }
  const fields: string[] = []
  for (const key of ['subject', 'description', 'activeForm', 'status', 'owner'] as const) {
    const value = input[key]
    if (value === undefined || value === old[key]) continue
    Object.assign(task, { [key]: value })
    fields.push(key)
  }
  if (input.metadata) {
    const merged: Record<string, unknown> = { ...old.metadata, ...input.metadata }
    for (const [k, v] of Object.entries(input.metadata)) if (v === null) delete merged[k]
    task.metadata = merged
    fields.push('metadata')
  }
  // As in Claude Code: a list naming an id not yet linked counts as a change, though only ids of
  // existing tasks (this one included) are linked, both ways.
  const others: Task[] = []
  const link = async (to: string, side: 'blocks' | 'blockedBy') => {
    const other = to === task.id ? task : others.find((o) => o.id === to) ?? await store.get(to)
    if (!other) return
    task[side] = [...task[side], to]
    const back = side === 'blocks' ? 'blockedBy' : 'blocks'
    if (!other[back].includes(task.id)) other[back] = [...other[back], task.id]
    if (other !== task && !others.includes(other)) others.push(other)
  }
  for (const [key, side] of [['addBlocks', 'blocks'], ['addBlockedBy', 'blockedBy']] as const) {
    const added = (input[key] ?? []).filter((id, i, all) => !task[side].includes(id) && all.indexOf(id) === i)
    for (const id of added) await link(id, side)
    if (added.length > 0) fields.push(side)
  }
  await store.put(task)
  for (const o of others) await store.put(o)
  return {
    result: { success: true, taskId, updatedFields: fields, ...(task.status !== old.status ? { statusChange: { from: old.status, to: task.status } } : {}) },
    text: `Updated task #${taskId} ${fields.join(', ')}`,
  }
}

// The list is the main conversation's: a background subagent, running unseen beside it, is not given these.
const tool = <S extends z.ZodType>(t: BuiltinTool<S>): BuiltinTool<S> => ({ ...t, traits: { foregroundOnly: true } })
