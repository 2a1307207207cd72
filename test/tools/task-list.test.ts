import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import taskList from '../../mods/task-list/index.js'
import todo from '../../mods/todo/index.js'
import { runScript } from '../loop/helpers.js'
import { openTools, tempDir, type Tools } from './harness.js'

let tmp: Awaited<ReturnType<typeof tempDir>>
let tools: Tools
const home = () => join(tmp.dir, 'home')

beforeAll(async () => {
  tmp = await tempDir()
  tools = await openTools(tmp.dir, [taskList], { MODLOOP_HOME: home() })
})
afterAll(async () => {
  await tools.close()
  await tmp.remove()
})

const call = async (name: string, input: Record<string, unknown>) => {
  const r = await tools.call(name, input)
  return { text: r.text, result: r.result, isError: r.isError }
}

describe('the task list tools', () => {
  it('create, link, list, read, move through the statuses and delete, with Claude Code\'s texts', async () => {
    expect(await call('TaskList', {})).toEqual({ text: 'No tasks found', result: { tasks: [] }, isError: false })
    expect(await call('TaskCreate', { subject: 'Write tests', description: 'Add unit tests', activeForm: 'Writing tests' }))
      .toEqual({ text: 'Task #1 created successfully: Write tests', result: { task: { id: '1', subject: 'Write tests', description: 'Add unit tests' } }, isError: false })
    await call('TaskCreate', { subject: 'Ship', description: 'Release it' })
    expect(await call('TaskUpdate', { taskId: '2', addBlockedBy: ['1'], owner: 'me' }))
      .toEqual({ text: 'Updated task #2 owner, blockedBy', result: { success: true, taskId: '2', updatedFields: ['owner', 'blockedBy'] }, isError: false })
    expect((await call('TaskList', {})).text).toBe('#1 [pending] Write tests\n#2 [pending] Ship (me) [blocked by #1]')
    expect(await call('TaskGet', { taskId: '2' })).toMatchObject({
      text: 'Task #2: Ship\nStatus: pending\nDescription: Release it\nBlocked by: #1',
      result: { task: { id: '2', status: 'pending', blocks: [], blockedBy: ['1'] } },
    })
    expect((await call('TaskGet', { taskId: '1' })).text).toBe('Task #1: Write tests\nStatus: pending\nDescription: Add unit tests\nBlocks: #2')
    expect((await call('TaskUpdate', { taskId: '1', status: 'in_progress' })).result).toEqual({ success: true, taskId: '1', updatedFields: ['status'], statusChange: { from: 'pending', to: 'in_progress' } })
    await call('TaskUpdate', { taskId: '1', status: 'completed' })
    // A completed blocker no longer blocks.
    expect(await call('TaskList', {})).toMatchObject({ text: '#1 [completed] Write tests\n#2 [pending] Ship (me)', result: { tasks: [{ id: '1', blockedBy: [] }, { id: '2', owner: 'me', blockedBy: [] }] } })
    expect(await call('TaskUpdate', { taskId: '1', status: 'completed' })).toMatchObject({ text: 'Updated task #1 ', result: { updatedFields: [] } })
    expect(await call('TaskUpdate', { taskId: '2', status: 'deleted' }))
      .toEqual({ text: 'Updated task #2 deleted', result: { success: true, taskId: '2', updatedFields: ['deleted'], statusChange: { from: 'pending', to: 'deleted' } }, isError: false })
    // The deleted task is gone, and so are the references to it; its id is not handed out again.
    expect((await call('TaskGet', { taskId: '1' })).result).toMatchObject({ task: { blocks: [] } })
    expect((await call('TaskCreate', { subject: 'Again', description: 'x' })).text).toBe('Task #3 created successfully: Again')
  })

  it('answers "Task not found" for an unknown id, without an error', async () => {
    expect(await call('TaskGet', { taskId: '99' })).toEqual({ text: 'Task not found', result: { task: null }, isError: false })
    expect(await call('TaskUpdate', { taskId: '99', status: 'completed' }))
      .toEqual({ text: 'Task not found', result: { success: false, taskId: '99', updatedFields: [], error: 'Task not found' }, isError: false })
  })

  it('merges metadata, a null removing a key, and rejects an unknown status', async () => {
    await call('TaskCreate', { subject: 'Meta', description: 'm', metadata: { a: 1, b: 2 } })
    expect((await call('TaskUpdate', { taskId: '4', metadata: { b: null, c: 3 } })).text).toBe('Updated task #4 metadata')
    const onDisk = JSON.parse(await readFile(join(home(), 'tasks', tools.session.id, '4.json'), 'utf8'))
    expect(onDisk).toMatchObject({ id: '4', subject: 'Meta', status: 'pending', metadata: { a: 1, c: 3 } })
    expect(onDisk.metadata).not.toHaveProperty('b')
    expect(await tools.call('TaskUpdate', { taskId: '4', status: 'done' })).toMatchObject({ isError: true, text: expect.stringContaining('status') })
  })

  it('reports a link to an unknown task as a change but stores none; a task may block itself', async () => {
    expect(await call('TaskUpdate', { taskId: '4', addBlockedBy: ['99'] })).toMatchObject({ text: 'Updated task #4 blockedBy', result: { updatedFields: ['blockedBy'] } })
    expect((await call('TaskGet', { taskId: '4' })).result).toMatchObject({ task: { blocks: [], blockedBy: [] } })
    expect((await call('TaskUpdate', { taskId: '4', addBlocks: ['4'] })).text).toBe('Updated task #4 blocks')
    expect((await call('TaskGet', { taskId: '4' })).text).toBe('Task #4: Meta\nStatus: pending\nDescription: m\nBlocked by: #4\nBlocks: #4')
    await call('TaskUpdate', { taskId: '4', status: 'deleted' })
    expect(await call('TaskCreate', { subject: 'Five', description: 'x' })).toMatchObject({ text: 'Task #5 created successfully: Five' })
  })

  it('keeps the list on disk: one file per task and the highest id deleted', async () => {
    const files = await readdir(join(home(), 'tasks', tools.session.id))
    expect(files.sort()).toEqual(['.highwatermark', '1.json', '3.json', '5.json'])
    expect(await readFile(join(home(), 'tasks', tools.session.id, '.highwatermark'), 'utf8')).toBe('4')
  })
})

describe('which checklist the model is offered', () => {
  const offered = async (model: string, env: Record<string, string> = {}, extra: Record<string, unknown> = {}) => {
    const r = await runScript([{ reply: 'ok' }], 'go', { cwd: tmp.dir, model, mods: [todo, taskList], env: { MODLOOP_HOME: home(), ...env }, ...extra })
    return ((r.requests[0]!.body as { tools?: { name: string }[] }).tools ?? []).map((t) => t.name).filter((n) => /^Task|^TodoWrite$/.test(n))
  }
  const TASKS = ['TaskCreate', 'TaskGet', 'TaskList', 'TaskUpdate']

  it('the task list on older models; TodoWrite only with CLAUDE_CODE_ENABLE_TASKS=0', async () => {
    expect(await offered('claude-sonnet-4-6')).toEqual(TASKS)
    expect(await offered('claude-haiku-4-5')).toEqual(TASKS)
    expect(await offered('claude-sonnet-4-6', { CLAUDE_CODE_ENABLE_TASKS: '0' })).toEqual(['TodoWrite'])
    expect(await offered('claude-sonnet-4-6', { CLAUDE_CODE_ENABLE_TASKS: 'false' })).toEqual(['TodoWrite'])
  })

  it('neither on Opus 4.8+, Sonnet 5+ and Fable 5+ unless opted in', async () => {
    for (const model of ['claude-opus-5-5', 'claude-opus-4-8', 'claude-sonnet-5', 'claude-fable-5']) expect(await offered(model)).toEqual([])
    expect(await offered('claude-opus-5-5', { CLAUDE_CODE_ENABLE_TASKS: '0' })).toEqual([])
    expect(await offered('claude-opus-5-5', { CLAUDE_CODE_ENABLE_TODO_TOOLS: '1' })).toEqual(TASKS)
    expect(await offered('claude-opus-5-5', { CLAUDE_CODE_ENABLE_TODO_TOOLS: 'true' })).toEqual(TASKS)
    expect(await offered('claude-opus-5-5', { CLAUDE_CODE_ENABLE_TODO_TOOLS: '1', CLAUDE_CODE_ENABLE_TASKS: '0' })).toEqual(['TodoWrite'])
    expect(await offered('claude-opus-5-5', {}, { allowedTools: ['TaskList'] })).toEqual(TASKS)
    expect(await offered('claude-opus-5-5', {}, { tools: ['Read', 'TaskCreate'] })).toEqual(['TaskCreate'])
  })
})
