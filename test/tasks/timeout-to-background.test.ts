import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import tasksMod from '../../mods/tasks/index.js'
import bashMod from '../../mods/bash/index.js'
import { movesToBackground } from '../../mods/bash/background-task.js'
import { withOptions } from '../helpers/with-options.js'
import { lastUserText, runTasks, system, toolResultOf } from './helpers.js'

let cwd: string
beforeAll(async () => { cwd = await realpath(await mkdtemp(join(tmpdir(), 'modloop-timeout-bg-'))) })
afterAll(() => rm(cwd, { recursive: true, force: true }))

const options = () => ({ cwd, mods: [bashMod, tasksMod] as never, env: { MODLOOP_HOME: join(cwd, '.home') } })

describe('a Bash command still running at its timeout (spec loop-and-sdk, Bash)', () => {
  it('moves to the background: the model gets the output so far and the task id, and its end comes back as a turn', async () => {
    // It waits for a file the test writes once the first turn has ended: it outlives its 300 ms for
    // sure, and its end comes back as a turn of its own however slow the machine (ended earlier, its
    // notification joined the first turn).
    const command = `echo started; until [ -f ${join(cwd, 'go')} ]; do sleep 0.05; done; echo finished`
    const run = await runTasks([
      { reply: [{ tool_use: { id: 'toolu_long', name: 'Bash', input: { command, description: 'the long job', timeout: 300 } } }] },
      { reply: 'it moved on' },
      { reply: 'it finished', expect: { lastUserText: '<status>completed</status>' } },
    ], 'go', options(), async (m) => {
      if (m.type === 'result') await writeFile(join(cwd, 'go'), '')
    })
    expect(run.error).toBeUndefined()
    const moved = toolResultOf(run, 'toolu_long')
    expect(moved.text).toMatch(/^started\nCommand did not complete within its 300ms timeout and was moved to the background \(ID: bash_1\)\. Output is being written to: /)
    expect(moved.text).toContain('If it is no longer needed, stop it with TaskStop. To check interim output, use Read on that file path.')
    expect(moved.result).toMatchObject({ stdout: 'started\n', interrupted: false, backgroundTaskId: 'bash_1' })
    expect(run.messages.some((m: any) => m.type === 'user' && JSON.stringify(m.message.content).includes('"is_error":true'))).toBe(false)
    expect(system(run, 'task_started')).toEqual([expect.objectContaining({ task_id: 'bash_1', description: 'the long job', is_backgrounded: true })])
    expect(system(run, 'task_notification')).toEqual([expect.objectContaining({ task_id: 'bash_1', status: 'completed' })])
    expect(run.results.map((r) => r.result)).toEqual(['it moved on', 'it finished'])
    // Its output file holds what it printed before the move and after it.
    expect(await readFile(moved.result.rawOutputPath, 'utf8')).toBe('started\nfinished\n')
  })

  it('one still running at its time limit in the background is stopped, and the model told', async () => {
    const run = await runTasks([
      { reply: [{ tool_use: { id: 'toolu_stuck', name: 'Bash', input: { command: 'echo stuck; while :; do sleep 0.05; done', description: 'the stuck job', timeout: 200 } } }] },
      { reply: 'it moved on' },
      { reply: 'it was stopped', expect: { lastUserText: 'was stopped after 300ms in the background' } },
    ], 'go', { ...options(), mods: [withOptions(bashMod, { movedLimitMs: 300 }), tasksMod] as never })
    expect(run.error).toBeUndefined()
    expect(toolResultOf(run, 'toolu_stuck').text).toContain('If it is still running after 300ms in the background, it will be stopped')
    expect(system(run, 'task_notification')).toEqual([expect.objectContaining({ task_id: 'bash_1', status: 'stopped', summary: 'Background command "the stuck job" was stopped after 300ms in the background' })])
    expect(system(run, 'task_updated').at(-1)!.patch).toMatchObject({ status: 'killed' })
    expect(run.results.map((r) => r.result)).toEqual(['it moved on', 'it was stopped'])
  })

  it('a run_in_background command still running at its timeout is stopped there, and the model told', async () => {
    const run = await runTasks([
      { reply: [{ tool_use: { id: 'toolu_bg', name: 'Bash', input: { command: 'echo ticking; while :; do sleep 0.05; done', description: 'the ticker', run_in_background: true, timeout: 300 } } }] },
      { reply: 'it runs' },
      { reply: 'it was stopped', expect: { lastUserText: 'was stopped after 300ms in the background' } },
    ], 'go', options())
    expect(run.error).toBeUndefined()
    expect(system(run, 'task_notification')).toEqual([expect.objectContaining({ task_id: 'bash_1', status: 'stopped', summary: 'Background command "the ticker" was stopped after 300ms in the background' })])
    expect(lastUserText(run.requests[2]!.body)).toContain('run it again with run_in_background and a longer timeout')
    expect(run.results.map((r) => r.result)).toEqual(['it runs', 'it was stopped'])
  })

  it('a sleep, a command that runs git, and a line that cannot be parsed are stopped as before', async () => {
    expect(movesToBackground('npm test')).toBe(true)
    expect(movesToBackground('echo a && node build.js | tee log')).toBe(true)
    expect(movesToBackground('sleep 30')).toBe(false)
    expect(movesToBackground('sleep 5 && echo done')).toBe(false)
    expect(movesToBackground('cd repo && git fetch origin')).toBe(false)
    expect(movesToBackground('/usr/bin/git log')).toBe(false)
    expect(movesToBackground('echo "unclosed')).toBe(false)
    const run = await runTasks([
      { reply: [{ tool_use: { id: 'toolu_sleep', name: 'Bash', input: { command: 'sleep 30', timeout: 200 } } }] },
      { reply: 'stopped' },
    ], 'go', options())
    expect(run.error).toBeUndefined()
    expect(toolResultOf(run, 'toolu_sleep')).toMatchObject({ text: 'Command timed out after 200 ms and was stopped.', result: 'Error: Command timed out after 200 ms and was stopped.' })
    expect(system(run, 'task_started')).toEqual([])
  })
})
