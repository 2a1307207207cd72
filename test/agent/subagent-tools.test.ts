import { mkdtemp, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import agentMod from '../../mods/agent/index.js'
import tasksMod from '../../mods/tasks/index.js'
import taskListMod from '../../mods/task-list/index.js'
import { runTasks } from '../tasks/helpers.js'

let cwd: string
beforeAll(async () => {
  cwd = await realpath(await mkdtemp(join(tmpdir(), 'modloop-subtools-')))
})
afterAll(() => rm(cwd, { recursive: true, force: true }))

const agent = (prompt: string, extra: Record<string, unknown> = {}) =>
  ({ tool_use: { name: 'Agent', input: { description: 'side job', prompt, ...extra } } })
const toolsOf = (requests: { body: any }[], prompt: string): string[] => {
  const first = (b: any) => JSON.stringify(b.messages[0].content)
  return requests.find((r) => first(r.body).includes(prompt))!.body.tools.map((t: any) => t.name)
}
const options = (mods: unknown[]) => ({ cwd, mods: mods as never, env: { MODLOOP_HOME: join(cwd, '.home'), CLAUDE_CODE_ENABLE_TODO_TOOLS: '1' } })

describe('the tools a subagent gets', () => {
  it('a background subagent is not given the task list, which stays the main conversation\'s; a foreground one is', async () => {
    const run = await runTasks([
      { reply: 'fg report', when: { firstUserText: 'FG-JOB' } },
      { reply: 'bg report', when: { firstUserText: 'BG-JOB' } },
      { reply: [agent('FG-JOB', { run_in_background: false }), agent('BG-JOB', { run_in_background: true })] },
      { reply: 'launched' },
      { reply: 'both reported' },
    ], 'go', options([agentMod, tasksMod, taskListMod]))
    expect(run.error).toBeUndefined()
    const list = ['TaskCreate', 'TaskGet', 'TaskList', 'TaskUpdate']
    expect(run.requests[0]!.body.tools.map((t: any) => t.name)).toEqual(expect.arrayContaining(list))
    expect(toolsOf(run.requests, 'FG-JOB')).toEqual(expect.arrayContaining(list))
    const bg = toolsOf(run.requests, 'BG-JOB')
    expect(bg).toContain('Agent')
    expect(bg.filter((n) => list.includes(n))).toEqual([])
  })
})
