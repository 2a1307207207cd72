import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { join } from 'node:path'
import taskList from '../../mods/task-list/index.js'
import { makeBox, dump, dumped, writeSettings, cmd, run, COMMON, keys, json, type Box } from './helpers.js'

let box: Box
beforeEach(async () => { box = await makeBox() })
afterEach(async () => { await box.remove() })

const use = (name: string, input: Record<string, unknown>) => ({ tool_use: { name, input } })
const results = (messages: readonly any[]) => messages.filter((m) => m.type === 'user' && m.tool_use_result !== undefined)
  .map((m) => ({ text: m.message.content[0].content, isError: m.message.content[0].is_error === true, result: m.tool_use_result }))
// The task list, on a model that offers it, kept under the sandbox.
const options = () => ({ model: 'claude-sonnet-4-6', mods: [taskList], env: { MODLOOP_HOME: join(box.root, 'modloop-home') } })
const TASK_FIELDS = ['task_description', 'task_id', 'task_subject']

describe('TaskCreated / TaskCompleted', () => {
  it('fire with the task on creation and on completion, without permission_mode', async () => {
    await writeSettings(box, { TaskCreated: [{ hooks: [cmd(dump(box, 'TaskCreated'))] }], TaskCompleted: [{ hooks: [cmd(dump(box, 'TaskCompleted'))] }] })
    const r = await run(box, [
      { reply: [use('TaskCreate', { subject: 'Write tests', description: 'Add unit tests' })] },
      { reply: [use('TaskUpdate', { taskId: '1', status: 'in_progress' })] },
      { reply: [use('TaskUpdate', { taskId: '1', status: 'completed' })] },
      { reply: 'done' },
    ], 'go', options())
    expect(r.result.result).toBe('done')
    const created = await dumped(box, 'TaskCreated')
    expect(created).toHaveLength(1)
    expect(keys(created[0]!)).toEqual([...COMMON.filter((k) => k !== 'permission_mode'), ...TASK_FIELDS].sort())
    expect(created[0]).toMatchObject({ hook_event_name: 'TaskCreated', task_id: '1', task_subject: 'Write tests', task_description: 'Add unit tests' })
    const completed = await dumped(box, 'TaskCompleted')
    expect(completed).toHaveLength(1)
    expect(completed[0]).toMatchObject({ hook_event_name: 'TaskCompleted', task_id: '1', task_subject: 'Write tests' })
  })

  it('exit 2 on TaskCreated rolls the task back (its id stays used); exit 2 on TaskCompleted leaves the task as it was', async () => {
    const refuseFirst = 'read x; case "$x" in *BLOCK*) echo "no such task" >&2; exit 2;; esac'
    const refuseDone = 'echo "tests still fail" >&2; exit 2'
    await writeSettings(box, {
      TaskCreated: [{ hooks: [cmd(refuseFirst)] }],
      TaskCompleted: [{ hooks: [cmd(refuseDone)] }, { hooks: [cmd('echo "not reviewed" >&2; exit 2')] }],
    })
    const r = await run(box, [
      { reply: [use('TaskCreate', { subject: 'BLOCK me', description: 'd' })] },
      { reply: [use('TaskCreate', { subject: 'Ship', description: 'release' })] },
      { reply: [use('TaskUpdate', { taskId: '2', status: 'completed', owner: 'me' })] },
      { reply: [use('TaskList', {})] },
      { reply: 'done' },
    ], 'go', options())
    const [refused, created, notDone, list] = results(r.messages)
    expect(refused).toEqual({ isError: true, text: `TaskCreated hook feedback:\n[${refuseFirst}]: no such task`, result: expect.anything() })
    expect(created!.text).toBe('Task #2 created successfully: Ship')
    // Each blocking hook's feedback under its own heading; not an error result, as in Claude Code.
    const feedback = `TaskCompleted hook feedback:\n[${refuseDone}]: tests still fail\n\nTaskCompleted hook feedback:\n[echo "not reviewed" >&2; exit 2]: not reviewed\n`
    expect(notDone).toEqual({ isError: false, text: feedback, result: { success: false, taskId: '2', updatedFields: [], error: feedback } })
    // Neither the status nor the owner changed.
    expect(list!.text).toBe('#2 [pending] Ship')
  })

  it('a JSON decision "block" on TaskCreated refuses the task with its reason', async () => {
    await writeSettings(box, { TaskCreated: [{ hooks: [cmd(json({ decision: 'block', reason: 'not now' }))] }] })
    const r = await run(box, [{ reply: [use('TaskCreate', { subject: 'A', description: 'a' })] }, { reply: [use('TaskList', {})] }, { reply: 'done' }], 'go', options())
    const [refused, list] = results(r.messages)
    expect(refused).toMatchObject({ isError: true, text: 'TaskCreated hook feedback:\nnot now' })
    expect(list!.text).toBe('No tasks found')
  })
})
