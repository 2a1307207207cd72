import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'

let dir: string
beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'modloop-task-list-')) })
afterAll(async () => { await rm(dir, { recursive: true, force: true }) })

const use = (name: string, input: Record<string, unknown>) => ({ tool_use: { name, input } })
const lines = (out: string) => out.split('\n').filter(Boolean).map((l) => JSON.parse(l))
const run = (script: unknown[], args: string[] = [], env: Record<string, string> = {}) =>
  runCli(['-p', 'go', '--model', 'claude-sonnet-4-6', '--output-format', 'stream-json', '--verbose', ...args], { script, cwd: dir, env: { HOME: dir, MODLOOP_HOME: join(dir, 'home'), ...env } })
const toolResults = (out: string) => lines(out).filter((m) => m.type === 'user' && m.tool_use_result !== undefined).map((m) => ({ text: m.message.content[0].content, result: m.tool_use_result }))

describe('the task list through -p', () => {
  it('is offered in init, answers on the stream, and starts empty on --resume', async () => {
    const first = await run([
      { reply: [use('TaskCreate', { subject: 'Write tests', description: 'Add unit tests' })] },
      { reply: [use('TaskUpdate', { taskId: '1', status: 'in_progress' })] },
      { reply: 'planned' },
    ])
    expect(first.code).toBe(0)
    const msgs = lines(first.out)
    expect(msgs[0].tools).toEqual(expect.arrayContaining(['TaskCreate', 'TaskGet', 'TaskList', 'TaskUpdate']))
    expect(msgs[0].tools).not.toContain('TodoWrite')
    expect(toolResults(first.out)).toEqual([
      { text: 'Task #1 created successfully: Write tests', result: { task: { id: '1', subject: 'Write tests', description: 'Add unit tests' } } },
      { text: 'Updated task #1 status', result: { success: true, taskId: '1', updatedFields: ['status'], statusChange: { from: 'pending', to: 'in_progress' } } },
    ])
    const sessionId = msgs.at(-1).session_id
    expect(await readdir(join(dir, 'home', 'tasks', sessionId))).toContain('1.json')

    // As in Claude Code, the resumed session's list is a new one: the old tasks are gone, ids start again.
    const resumed = await run([{ reply: [use('TaskList', {})] }, { reply: [use('TaskCreate', { subject: 'Again', description: 'a' })] }, { reply: 'ok' }], ['--resume', sessionId])
    expect(toolResults(resumed.out).map((r) => r.text)).toEqual(['No tasks found', 'Task #1 created successfully: Again'])
  })

  it('CLAUDE_CODE_TASK_LIST_ID shares one list between sessions', async () => {
    const env = { CLAUDE_CODE_TASK_LIST_ID: 'shared' }
    await run([{ reply: [use('TaskCreate', { subject: 'Shared', description: 's' })] }, { reply: 'ok' }], [], env)
    const other = await run([{ reply: [use('TaskList', {})] }, { reply: 'ok' }], [], env)
    expect(toolResults(other.out)[0]!.text).toBe('#1 [pending] Shared')
  })
})
