import { mkdtemp, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PLAN_REMINDER } from '../../mods/permissions/index.js'
import { runCli } from '../helpers/cli.js'
import { runStreaming } from '../faults/stream-session.js'

// `/plan [task]` in -p and over the SDK's transport: the built CLI against the fake Messages API.

let dir: string
beforeAll(async () => { dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-plan-command-'))) })
afterAll(() => rm(dir, { recursive: true, force: true }))
// Transcripts go under the test's folder, not the home of whoever runs the tests.
const homeEnv = () => ({ HOME: join(dir, 'home'), MODLOOP_HOME: join(dir, 'home', '.modloop') })

const lines = (out: string) => out.trim().split('\n').map((l) => JSON.parse(l) as Record<string, any>)
const statuses = (messages: Record<string, any>[]) => messages.filter((m) => m.type === 'system' && m.subtype === 'status').map((m) => m.permissionMode)
const lastUserText = (request: any) => JSON.stringify(request.body.messages.at(-1).content)
const FULL = JSON.stringify(PLAN_REMINDER).slice(1, -1)

describe('/plan', () => {
  it('with a task, switches to plan mode and runs the task in the same turn, the plan reminder beside it', async () => {
    const r = await runCli(['-p', '/plan fix the parser', '--output-format', 'stream-json', '--verbose'], { script: [{ reply: 'Here is how I would do it.' }], cwd: dir, env: homeEnv() })
    expect(r.code).toBe(0)
    const messages = lines(r.out)
    expect(messages[0]).toMatchObject({ type: 'system', subtype: 'init', slash_commands: expect.arrayContaining(['plan']) })
    expect(statuses(messages)).toEqual(['plan'])
    expect(r.requests).toHaveLength(1)
    const sent = lastUserText(r.requests[0])
    expect(sent).toContain('fix the parser')
    expect(sent).toContain('<command-name>/plan</command-name>')
    expect(sent).toContain(FULL)
    expect(messages.at(-1)).toMatchObject({ type: 'result', subtype: 'success', result: 'Here is how I would do it.' })
  })

  it('alone, switches without a model call; the next prompt carries the full reminder once, and a second /plan says so', async () => {
    const run = await runStreaming(dir, { script: [{ reply: 'planning' }, { reply: 'still planning' }], inputs: ['/plan', 'look at src', '/plan', 'and the tests'] })
    expect(run.code).toBe(0)
    expect(run.results.map((m) => m.result)).toEqual([
      'Plan mode is on: Claude reads and plans, and changes nothing until a plan is approved.',
      'planning',
      'Already in plan mode.',
      'still planning',
    ])
    expect(run.results[0]).toMatchObject({ local_command: 'plan', is_error: false })
    expect(statuses(run.messages)).toEqual(['plan'])
    expect(run.requests).toHaveLength(2)
    expect(lastUserText(run.requests[0])).toContain(FULL)
    expect(lastUserText(run.requests[1])).not.toContain(FULL)
  })
})
