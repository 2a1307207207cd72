import type { MessageParam } from '@anthropic-ai/sdk/resources/messages'
import { z } from 'zod'
import { defineMod } from '../../core/mod/define.js'
import { registerTool } from '../_shared/register-tool.js'
import { todosFromHistory } from './from-history.js'
import { checklistOf } from '../_shared/checklist-gate.js'
import { builtinInput } from '../_shared/builtin-input.js'

const todoInput = builtinInput('TodoWrite', () => {
  const todo = z.object({
    content: z.string().min(1).describe('The task, in imperative form, e.g. "Run the tests"'),
    status: z.enum(['pending', 'in_progress', 'completed']),
    activeForm: z.string().min(1).describe('The task in present continuous form, shown while it runs, e.g. "Running the tests"'),
  })
  return z.object({
    todos: z.array(todo).describe('The whole updated todo list'),
  })
})
export type Todo = z.output<ReturnType<typeof todoInput>>['todos'][number]

const DESCRIPTION = `Keeps a structured todo list for the current session, to plan and track multi-step work and show progress.
- Use it for tasks of three or more steps, or when the user gives several tasks; skip it for a single trivial task.
- Send the whole list each time. Exactly one task is in_progress while working; mark a task completed as soon as it is done, not in batches.
- Mark a task completed only when it is fully done: not while tests fail, the work is partial, or errors are unresolved.
- Each task has content (imperative: "Fix the build") and activeForm (continuous: "Fixing the build").`

/** What the todo mod offers other mods (output mods, compaction), as the `todo` capability. */
export interface TodoApi {
  /** The list as the last TodoWrite left it. */
  todos(): readonly Todo[]
}

declare module '../../core/mod/capabilities.js' {
  interface Capabilities {
    todo: TodoApi
  }
}

function carriedTodos(todos: unknown[] | undefined): Todo[] | undefined {
  const parsed = todoInput().shape.todos.safeParse(todos)
  return parsed.success ? parsed.data : undefined
}

/** TodoWrite: the model's legacy checklist, kept in session state. */
export default defineMod({
  name: 'todo',
  description: 'The TodoWrite tool',
  provides: ['todo'],
  register(on, _options, $) {
    let list: Todo[] = []
    // Each subagent keeps its own list, as in Claude Code: its plan must not replace the main
    // agent's (which the capability shows and compaction carries), nor be its oldTodos.
    const agentLists = new Map<string, Todo[]>()
    $.capability.provide('todo', { todos: () => list })
    on('session.start', async ($, e, next) => {
      // A host can serve several sessions one after another; each starts with an empty list,
      // or, resumed, with the list its last successful TodoWrite left — or, when a compaction
      // took that call away, the list the compaction recorded.
      const resumed = e.resumedFrom && (todosFromHistory($.session.messages() as MessageParam[], todoInput()) ?? carriedTodos(e.resumedFrom.carried?.todos))
      list = resumed || []
      agentLists.clear()
      // The legacy checklist: offered only where the task list is turned off (CLAUDE_CODE_ENABLE_TASKS=0).
      if (checklistOf($) !== 'todo') return next(e)
      await registerTool($, {
        name: 'TodoWrite', description: DESCRIPTION, input: todoInput, isReadOnly: false,
        call: ({ todos }, ctx) => {
          const oldTodos = ctx.agentId ? agentLists.get(ctx.agentId) ?? [] : list
          if (ctx.agentId) agentLists.set(ctx.agentId, todos)
          else list = todos
          const open = todos.filter((t) => t.status !== 'completed').length
          const tasks = `${todos.length} task${todos.length === 1 ? '' : 's'}`
          return {
            result: { oldTodos, newTodos: todos },
            // With every task done there is no task in progress to go on with.
            text: open === 0 && todos.length > 0
              ? `Todo list updated (${tasks}, all completed).`
              : `Todo list updated (${tasks}, ${open} not completed). Keep it current as you work, and go on with the task in progress.`,
          }
        },
      })
      return next(e)
    })
  },
})
