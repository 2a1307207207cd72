import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import todo from '../../mods/todo/index.js'
import { openTools, tempDir, type Tools } from './harness.js'

let tmp: Awaited<ReturnType<typeof tempDir>>
let tools: Tools

beforeAll(async () => {
  tmp = await tempDir()
  // TodoWrite is the legacy checklist: offered only with the task list turned off.
  tools = await openTools(tmp.dir, [todo], { CLAUDE_CODE_ENABLE_TASKS: '0' })
})
afterAll(async () => {
  await tools.close()
  await tmp.remove()
})

describe('TodoWrite', () => {
  it('stores the list in session state and returns old and new lists', async () => {
    const first = [{ content: 'Write tests', status: 'in_progress', activeForm: 'Writing tests' }, { content: 'Ship', status: 'pending', activeForm: 'Shipping' }]
    const r1 = await tools.call('TodoWrite', { todos: first })
    expect(r1).toMatchObject({ isError: false, result: { oldTodos: [], newTodos: first } })
    expect(r1.text).toContain('2 tasks, 2 not completed')
    const second = [{ ...first[0], status: 'completed' }, { ...first[1], status: 'in_progress' }]
    const r2 = await tools.call('TodoWrite', { todos: second })
    expect(r2.result).toEqual({ oldTodos: first, newTodos: second })
    expect(tools.session.host.capabilities.get('todo')?.todos()).toEqual(second)
  })

  it('does not send the model on to a task in progress once every task is completed', async () => {
    const done = [{ content: 'Ship', status: 'completed', activeForm: 'Shipping' }]
    expect((await tools.call('TodoWrite', { todos: done })).text).toBe('Todo list updated (1 task, all completed).')
  })

  it('rejects a todo without activeForm or with an unknown status', async () => {
    expect(await tools.call('TodoWrite', { todos: [{ content: 'x', status: 'pending' }] })).toMatchObject({ isError: true, text: expect.stringContaining('activeForm') })
    expect(await tools.call('TodoWrite', { todos: [{ content: 'x', status: 'done', activeForm: 'x' }] })).toMatchObject({ isError: true, text: expect.stringContaining('status') })
  })
})

describe('TodoWrite in a subagent', () => {
  it("keeps the subagent's list apart: the main agent's list and its oldTodos stay its own", async () => {
    const { runScript } = await import('../loop/helpers.js')
    const { defineMod } = await import('../../core/mod/define.js')
    const agentMod = (await import('../../mods/agent/index.js')).default
    const main = [{ content: 'Main task', status: 'in_progress', activeForm: 'Doing the main task' }]
    const sub = [{ content: 'Sub task', status: 'in_progress', activeForm: 'Doing the sub task' }]
    const seen: unknown[] = []
    const probe = defineMod({
      name: 'probe', uses: { todo: 'required' },
      register: (on) => on('tool.call', async ($, e, next) => {
        const r = await next(e)
        if (e.tool === 'TodoWrite') seen.push({ agent: e.agentId ? 'sub' : 'main', list: $.capability.use('todo')?.todos(), result: 'result' in r ? r.result : undefined })
        return r
      }),
    })
    const write = (todos: unknown) => ({ tool_use: { name: 'TodoWrite', input: { todos } } })
    await runScript([
      { reply: [write(main)] },
      { reply: [{ tool_use: { name: 'Agent', input: { description: 'side work', prompt: 'do the side work' } } }] },
      { reply: [write(sub)] },
      { reply: 'side work done' },
      { reply: [write(main)] },
      { reply: 'done' },
    ], 'go', { cwd: tmp.dir, mods: [todo, agentMod, probe], model: 'claude-sonnet-4-6', env: { CLAUDE_CODE_ENABLE_TASKS: '0' } })
    expect(seen.map((s: any) => s.agent)).toEqual(['main', 'sub', 'main'])
    expect((seen[1] as any).list).toEqual(main)
    expect((seen[1] as any).result).toEqual({ oldTodos: [], newTodos: sub })
    expect((seen[2] as any).result).toEqual({ oldTodos: main, newTodos: main })
  })
})
