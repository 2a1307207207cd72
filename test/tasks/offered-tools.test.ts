import { mkdtemp, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import tasksMod from '../../mods/tasks/index.js'
import bashMod from '../../mods/bash/index.js'
import { runTasks, toolResultOf } from './helpers.js'

let cwd: string
beforeAll(async () => { cwd = await realpath(await mkdtemp(join(tmpdir(), 'modloop-bg-tools-'))) })
afterAll(() => rm(cwd, { recursive: true, force: true }))

// bash before tasks: whether the older tools are offered must not hang on which mod's session starts first.
const options = (extra: Record<string, unknown> = {}) => ({ cwd, mods: [bashMod, tasksMod] as never, env: { MODLOOP_HOME: join(cwd, '.home') }, ...extra })
const names = (body: any) => (body.tools as { name: string }[]).map((t) => t.name)

describe('the tools for background work (as Claude Code offers them)', () => {
  it('the model gets TaskStop, not BashOutput or KillShell, and a background start points at Read on the output file', async () => {
    const run = await runTasks([
      { reply: [{ tool_use: { id: 'toolu_bg', name: 'Bash', input: { command: 'echo hi', description: 'say hi', run_in_background: true } } }] },
      { reply: 'started it' },
      { reply: 'noted' },
    ], 'go', options())
    expect(run.error).toBeUndefined()
    const tools = names(run.requests[0]!.body)
    expect(tools).toEqual(expect.arrayContaining(['Bash', 'TaskStop']))
    expect(tools).not.toContain('BashOutput')
    expect(tools).not.toContain('KillShell')
    const bash = (run.requests[0]!.body.tools as { name: string; description: string }[]).find((t) => t.name === 'Bash')!
    expect(bash.description).toContain('TaskStop')
    expect(bash.description).not.toMatch(/BashOutput|KillShell/)
    const started = toolResultOf(run, 'toolu_bg')
    expect(started.text).toBe(`Command running in background with ID: bash_1. Output is being written to: ${started.result.rawOutputPath}. You will be notified when it completes. To check interim output, use Read on that file path.`)
  })

  it('naming BashOutput or KillShell in allowedTools offers both again', async () => {
    const run = await runTasks([{ reply: 'ok' }], 'go', options({ allowedTools: ['KillShell'] }))
    expect(run.error).toBeUndefined()
    expect(names(run.requests[0]!.body)).toEqual(expect.arrayContaining(['TaskStop', 'BashOutput', 'KillShell']))
  })
})
