import { mkdtemp, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runStreaming } from '../faults/stream-session.js'

// `/tasks` (`/bashes`) over the SDK's transport: the built CLI against the fake Messages API, a
// real background shell started by the model's Bash call.

let dir: string
beforeAll(async () => { dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-tasks-command-'))) })
afterAll(() => rm(dir, { recursive: true, force: true }))

describe('/tasks', () => {
  it('lists the background shell with its id, status, time and output file; /tasks stop stops it and the model is told', async () => {
    const run = await runStreaming(dir, {
      script: [
        { reply: [{ tool_use: { name: 'Bash', input: { command: 'sleep 120', run_in_background: true } } }] },
        { reply: 'It runs in the background.' },
        { reply: 'Noted: the sleep was stopped.' },
      ],
      inputs: ['/tasks', 'start a long sleep', '/bashes', '/tasks stop bash_9', '/tasks halt', '/tasks stop bash_1', '/tasks'],
      args: ['--allowedTools', 'Bash(sleep:*)'],
    })
    expect(run.code).toBe(0)
    const said = run.results.map((r) => r.result as string)
    expect(said[0]).toBe('No tasks in this session.')
    expect(said[1]).toBe('It runs in the background.')
    expect(said[2]).toMatch(/^Tasks \(1, 1 running\):\n {2}bash_1 {2}shell {2}running {2}\d+s {2}sleep 120\n {4}output: \S+bash_1\.output$/)
    expect(said[3]).toBe('No task has the id bash_9. /tasks lists them.')
    expect(said[4]).toBe('Usage: /tasks, to list the tasks; /tasks stop <id>, to stop one that runs.')
    expect(said[5]).toBe('Stopped task bash_1 (sleep 120).')
    // The stop's notification runs as a turn of its own before the last /tasks.
    expect(said[6]).toBe('Noted: the sleep was stopped.')
    expect(said[7]).toMatch(/^Tasks \(1, 0 running\):\n {2}bash_1 {2}shell {2}stopped {2}\d+s {2}sleep 120\n/)
    expect(run.results.filter((r) => r.local_command).map((r) => r.local_command)).toEqual(['tasks', 'bashes', 'tasks', 'tasks', 'tasks', 'tasks'])
    expect(JSON.stringify((run.requests[2]!.body as any).messages.at(-1))).toContain('bash_1')
  })
})
