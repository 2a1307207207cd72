import { mkdtemp, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import agentMod from '../../mods/agent/index.js'
import tasksMod from '../../mods/tasks/index.js'
import bashMod from '../../mods/bash/index.js'
import { runTasks, system, toolResultOf } from './helpers.js'

let cwd: string
beforeAll(async () => { cwd = await realpath(await mkdtemp(join(tmpdir(), 'modloop-bg-off-'))) })
afterAll(() => rm(cwd, { recursive: true, force: true }))

const SIDE = 'side job: list the notes'
const options = (on = '1') => ({ cwd, mods: [bashMod, agentMod, tasksMod] as never, env: { MODLOOP_HOME: join(cwd, '.home'), CLAUDE_CODE_DISABLE_BACKGROUND_TASKS: on } })
const tool = (body: any, name: string) => (body.tools as { name: string; description: string; input_schema: any }[]).find((t) => t.name === name)!

describe('CLAUDE_CODE_DISABLE_BACKGROUND_TASKS', () => {
  it('Bash offers no run_in_background and refuses one; a command past its timeout is stopped, not moved to the background', async () => {
    const run = await runTasks([
      { reply: [{ tool_use: { id: 'toolu_bg', name: 'Bash', input: { command: 'echo hi', run_in_background: true } } }] },
      { reply: [{ tool_use: { id: 'toolu_long', name: 'Bash', input: { command: 'echo started; tail -f /dev/null', timeout: 300 } } }] },
      { reply: 'done' },
    ], 'go', options())
    expect(run.error).toBeUndefined()
    const bash = tool(run.requests[0]!.body, 'Bash')
    expect(Object.keys(bash.input_schema.properties)).not.toContain('run_in_background')
    expect(bash.description).toContain('A command still running at its timeout is stopped')
    expect(bash.description).not.toContain('run_in_background')
    expect(toolResultOf(run, 'toolu_bg').text).toContain('An unexpected parameter `run_in_background` was provided')
    expect(toolResultOf(run, 'toolu_long').text).toBe('started\nCommand timed out after 300 ms and was stopped.')
    expect(system(run, 'task_started')).toEqual([])
  })

  it('Agent offers no run_in_background; one the model still sends is dropped and the call waits for the report', async () => {
    const run = await runTasks([
      { reply: [{ tool_use: { id: 'toolu_agent', name: 'Agent', input: { description: 'list the notes', prompt: SIDE, run_in_background: true } } }] },
      { reply: 'found three notes', when: { firstUserText: SIDE } },
      { reply: 'done', expect: { toolResults: 1 } },
    ], 'go', options('true'))
    expect(run.error).toBeUndefined()
    const agent = tool(run.requests[0]!.body, 'Agent')
    expect(Object.keys(agent.input_schema.properties)).not.toContain('run_in_background')
    expect(agent.description).toContain('The call waits for the agent')
    expect(toolResultOf(run, 'toolu_agent').text).toContain('found three notes')
    expect(run.results.map((r) => r.result)).toEqual(['done'])
  })
})
