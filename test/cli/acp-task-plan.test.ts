import { describe, expect, it } from 'vitest'
import { UpdateStream } from '../../cli/acp/updates.js'
import type { SDKMessage } from '../../core/loop/messages.js'

const usage = { input_tokens: 1, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 }
const plans = (stream: UpdateStream, id: string, name: string, input: Record<string, unknown>, result: unknown, text: string) => [
  ...stream.of({ type: 'assistant', parent_tool_use_id: null, message: { usage, content: [{ type: 'tool_use', id, name, input }] } } as unknown as SDKMessage),
  ...stream.of({ type: 'user', parent_tool_use_id: null, tool_use_result: result, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: text }] } } as unknown as SDKMessage),
].filter((u) => u.sessionUpdate === 'plan')

describe('ACP plan from the task list', () => {
  it('each TaskCreate, TaskUpdate and TaskList sends the list as the plan, as TodoWrite does', () => {
    const s = new UpdateStream(true)
    expect(plans(s, 't1', 'TaskCreate', { subject: 'Write tests', description: 'd' }, { task: { id: '1', subject: 'Write tests', description: 'd' } }, 'Task #1 created successfully: Write tests'))
      .toEqual([{ sessionUpdate: 'plan', entries: [{ content: 'Write tests', status: 'pending', priority: 'medium' }] }])
    plans(s, 't2', 'TaskCreate', { subject: 'Ship', description: 'd' }, { task: { id: '2', subject: 'Ship', description: 'd' } }, 'Task #2 created successfully: Ship')
    expect(plans(s, 't3', 'TaskUpdate', { taskId: '1', status: 'in_progress' }, { success: true, taskId: '1', updatedFields: ['status'], statusChange: { from: 'pending', to: 'in_progress' } }, 'Updated task #1 status'))
      .toEqual([{ sessionUpdate: 'plan', entries: [{ content: 'Write tests', status: 'in_progress', priority: 'medium' }, { content: 'Ship', status: 'pending', priority: 'medium' }] }])
    // A task not found changes no plan; TaskGet reads one task only.
    expect(plans(s, 't4', 'TaskUpdate', { taskId: '9', status: 'completed' }, { success: false, taskId: '9', updatedFields: [], error: 'Task not found' }, 'Task not found')).toEqual([])
    expect(plans(s, 't5', 'TaskGet', { taskId: '1' }, { task: null }, 'Task not found')).toEqual([])
  })
})
