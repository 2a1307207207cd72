import { mkdtemp, readFile, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import tasksMod from '../../mods/tasks/index.js'
import bashMod from '../../mods/bash/index.js'
import { runTasks, system, toolResultOf } from './helpers.js'

let cwd: string
beforeAll(async () => { cwd = await realpath(await mkdtemp(join(tmpdir(), 'modloop-task-stop-'))) })
afterAll(() => rm(cwd, { recursive: true, force: true }))

const options = () => ({ cwd, mods: [bashMod, tasksMod] as never, env: { MODLOOP_HOME: join(cwd, '.home') } })
const stop = (id: string, input: Record<string, unknown>) => ({ reply: [{ tool_use: { id, name: 'TaskStop', input } }] })

describe('TaskStop (the tool Claude Code gives the model to stop background work)', () => {
  it('stops a running background shell by task_id; its end is on the stream, and no turn tells the model again', async () => {
    const run = await runTasks([
      { reply: [{ tool_use: { name: 'Bash', input: { command: 'while :; do sleep 0.05; done', description: 'the server', run_in_background: true } } }] },
      stop('toolu_stop', { task_id: 'bash_1' }),
      stop('toolu_again', { task_id: 'bash_1' }),
      stop('toolu_unknown', { task_id: 'nope' }),
      stop('toolu_none', {}),
      { reply: 'stopped it' },
    ], 'go', options())
    expect(run.error).toBeUndefined()
    expect(toolResultOf(run, 'toolu_stop')).toMatchObject({ text: 'Stopped task bash_1 (the server)', result: { task_id: 'bash_1', task_type: 'local_bash' } })
    expect(toolResultOf(run, 'toolu_again').text).toBe('Task bash_1 is not running (stopped).')
    expect(toolResultOf(run, 'toolu_unknown').text).toBe('No task found with ID: nope')
    expect(toolResultOf(run, 'toolu_none').text).toBe('Missing required parameter: task_id')
    expect(system(run, 'task_notification')).toEqual([expect.objectContaining({ task_id: 'bash_1', status: 'stopped' })])
    expect(run.results.map((r) => r.result)).toEqual(['stopped it'])
  })

  it('takes the deprecated shell_id too, and the output file keeps what the shell printed before it stopped', async () => {
    const run = await runTasks([
      { reply: [{ tool_use: { id: 'toolu_bg', name: 'Bash', input: { command: 'echo up; while :; do sleep 0.05; done', description: 'the server', run_in_background: true } } }] },
      { reply: [{ tool_use: { name: 'Bash', input: { command: 'sleep 0.2' } } }] },
      stop('toolu_stop', { shell_id: 'bash_1' }),
      { reply: 'stopped it' },
    ], 'go', options())
    expect(run.error).toBeUndefined()
    expect(toolResultOf(run, 'toolu_stop').text).toBe('Stopped task bash_1 (the server)')
    expect(await readFile(toolResultOf(run, 'toolu_bg').result.rawOutputPath, 'utf8')).toBe('up\n')
  })
})
