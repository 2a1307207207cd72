import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { ModHost } from '../../core/mod/host.js'
import type { CanUseTool } from '../../core/tools/pipeline.js'
import agentMod from '../../mods/agent/index.js'
import bashMod from '../../mods/bash/index.js'
import { PLAN_REMINDER } from '../../mods/permissions/index.js'
import writeMod from '../../mods/write/index.js'
import { runCli } from '../helpers/cli.js'
import { runScript } from '../loop/helpers.js'
import { planHost, sandbox, type Sandbox } from './helpers.js'

// EnterPlanMode through the real loop and the fake server: the model switches to plan mode itself.

let box: Sandbox
beforeAll(async () => { box = await sandbox() })
afterAll(() => box.remove())

const hostWith = (...extra: Parameters<ModHost['add']>[0][]) => planHost(box, ...extra)

const enter = { tool_use: { name: 'EnterPlanMode', input: {} } }
const toolNames = (request: { body: any } | undefined) => request!.body.tools.map((t: any) => t.name)
const lastUser = (request: { body: any } | undefined) => request!.body.messages.at(-1).content as any[]
const statuses = (messages: any[]) => messages.filter((m) => m.type === 'system' && m.subtype === 'status').map((m) => m.permissionMode)

describe('EnterPlanMode', () => {
  it('asks no one, switches to plan mode, and the plan reminder follows its result at once', async () => {
    const host = await hostWith()
    const file = join(box.project, 'not-in-plan.txt')
    const canUseTool = vi.fn<CanUseTool>(async () => ({ behavior: 'deny', message: 'still planning' }))
    const run = await runScript([
      { reply: [enter] },
      { reply: [{ tool_use: { name: 'Write', input: { file_path: file, content: 'x' } } }] },
      { reply: 'planning' },
    ], 'add a feature', { host, cwd: box.project, permissionMode: 'acceptEdits', canUseTool })
    const mode = host.capabilities.get('permissionMode')!.mode()
    await host.close()
    const tool = run.requests[0]!.body.tools.find((t: any) => t.name === 'EnterPlanMode')
    expect(tool.input_schema).toMatchObject({ type: 'object', properties: {}, additionalProperties: false })
    const [result, reminder] = lastUser(run.requests[1])
    expect(result).toMatchObject({ type: 'tool_result', content: expect.stringMatching(/^Plan mode is on\./) })
    expect(result.is_error).toBeUndefined()
    expect(reminder.text).toContain(PLAN_REMINDER)
    expect(statuses(run.messages)).toEqual(['plan'])
    expect(mode).toBe('plan')
    // In plan mode an edit goes to the approver even in a session started in acceptEdits.
    expect(canUseTool.mock.calls.map((c) => c[0])).toEqual(['Write'])
    expect(existsSync(file)).toBe(false)
  })

  it('in plan mode already it changes nothing and tells no one', async () => {
    const host = await hostWith()
    const canUseTool = vi.fn<CanUseTool>(async () => ({ behavior: 'allow' }))
    const run = await runScript([{ reply: [enter] }, { reply: 'ok' }], 'go', { host, cwd: box.project, permissionMode: 'plan', canUseTool })
    await host.close()
    expect(canUseTool).not.toHaveBeenCalled()
    expect(statuses(run.messages)).toEqual([])
    expect(lastUser(run.requests[1])[0].content).toMatch(/^Plan mode is on\./)
  })

  it('a subagent is not offered it; the main agent is', async () => {
    const host = await hostWith(agentMod)
    const run = await runScript([
      { reply: [{ tool_use: { name: 'Agent', input: { description: 'look', prompt: 'look around', subagent_type: 'general-purpose' } } }] },
      { reply: 'found nothing' },
      { reply: 'done' },
    ], 'go', { host, cwd: box.project, canUseTool: async () => ({ behavior: 'allow' }) })
    await host.close()
    expect(toolNames(run.requests[0])).toContain('EnterPlanMode')
    expect(toolNames(run.requests[1])).toEqual(expect.arrayContaining(['Bash', 'Write']))
    expect(toolNames(run.requests[1])).not.toContain('EnterPlanMode')
  })

  it('plain -p, where no one could approve a plan, does not offer it', async () => {
    const r = await runCli(['-p', 'go', '--output-format', 'stream-json', '--verbose'], {
      script: [{ reply: [enter] }, { reply: 'ok' }], cwd: box.project, env: { MODLOOP_HOME: box.modloopHome, HOME: box.home }, stdin: '',
    })
    expect(r.code, r.err).toBe(0)
    const init = JSON.parse(r.out.split('\n')[0]!)
    expect(init.tools).not.toContain('EnterPlanMode')
    expect(toolNames(r.requests[0])).not.toContain('EnterPlanMode')
    expect(lastUser(r.requests[1])[0]).toMatchObject({ is_error: true, content: expect.stringContaining('No such tool available: EnterPlanMode') })
  })
})
