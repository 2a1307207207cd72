import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import todo from '../../mods/todo/index.js'
import { openTools, tempDir, type Tools } from './harness.js'

let tmp: Awaited<ReturnType<typeof tempDir>>
let tools: Tools

beforeAll(async () => {
  tmp = await tempDir()
  tools = await openTools(tmp.dir, [todo])
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

  it('rejects a todo without activeForm or with an unknown status', async () => {
    expect(await tools.call('TodoWrite', { todos: [{ content: 'x', status: 'pending' }] })).toMatchObject({ isError: true, text: expect.stringContaining('activeForm') })
    expect(await tools.call('TodoWrite', { todos: [{ content: 'x', status: 'done', activeForm: 'x' }] })).toMatchObject({ isError: true, text: expect.stringContaining('status') })
  })
})
