import { existsSync } from 'node:fs'
import { chmod, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { ModHost } from '../../core/mod/host.js'
import type { CanUseTool } from '../../core/tools/pipeline.js'
import agentMod from '../../mods/agent/index.js'
import bashMod from '../../mods/bash/index.js'
import { PLAN_REMINDER } from '../../mods/permissions/index.js'
import writeMod from '../../mods/write/index.js'
import { runCli } from '../helpers/cli.js'
import { shapeProblems } from '../helpers/sdk-shapes.js'
import { runScript } from '../loop/helpers.js'
import { planHost, sandbox, type Sandbox } from './helpers.js'

// Plan mode through the real loop and the fake server: ExitPlanMode approved, refused, unanswerable;
// what plan mode does with calls that change things; subagents never get the tool.

let box: Sandbox
beforeAll(async () => { box = await sandbox() })
afterAll(() => box.remove())

const hostWith = (...extra: Parameters<ModHost['add']>[0][]) => planHost(box, ...extra)

const exit = (plan: string) => ({ tool_use: { name: 'ExitPlanMode', input: { plan } } })
const results = (request: { body: any } | undefined) => request!.body.messages.at(-1).content.filter((b: any) => b.type === 'tool_result')
const toolNames = (request: { body: any } | undefined) => request!.body.tools.map((t: any) => t.name)
const statuses = (messages: any[]) => messages.filter((m) => m.type === 'system' && m.subtype === 'status').map((m) => m.permissionMode)

describe('ExitPlanMode', () => {
  it('approved: the approver sees the plan, plan mode ends for the mode it was entered from, the stream and the model are told', async () => {
    const host = await hostWith()
    const file = join(box.project, 'after-plan.txt')
    const canUseTool = vi.fn<CanUseTool>(async () => ({ behavior: 'allow' }))
    const run = await runScript([
      { reply: [{ text: 'Here is the plan.' }, exit('# Plan\n1. Write after-plan.txt')] },
      { reply: [{ tool_use: { name: 'Bash', input: { command: `touch ${file}` } } }] },
      { reply: 'done' },
    ], 'make a plan', { host, cwd: box.project, permissionMode: 'plan', canUseTool })
    const mode = host.capabilities.get('permissionMode')!.mode()
    await host.close()
    expect(toolNames(run.requests[0])).toContain('ExitPlanMode')
    expect(run.requests[0]!.body.messages[0].content.map((b: any) => b.text).join('\n')).toContain(PLAN_REMINDER)
    const [tool, input, o] = canUseTool.mock.calls[0]!
    expect({ tool, input }).toEqual({ tool: 'ExitPlanMode', input: { plan: '# Plan\n1. Write after-plan.txt' } })
    expect(o.decisionReason).toBe('leaving plan mode needs the user to approve the plan')
    expect(results(run.requests[1])[0]).toMatchObject({
      content: expect.stringMatching(/^User has approved your plan\. You can now start coding\.[^]*now default\.\n\n## Approved Plan:\n# Plan\n1\. Write after-plan\.txt$/),
    })
    expect(results(run.requests[1])[0].is_error).toBeUndefined()
    // The status message comes before the tool result that says so.
    const statusAt = run.messages.findIndex((m: any) => m.type === 'system' && m.subtype === 'status')
    const resultAt = run.messages.findIndex((m: any) => m.type === 'user' && JSON.stringify(m.message.content).includes('approved your plan'))
    expect(statuses(run.messages)).toEqual(['default'])
    expect(statusAt).toBeGreaterThan(-1)
    expect(statusAt).toBeLessThan(resultAt)
    expect(mode).toBe('default')
    // Out of plan mode, a command that writes goes to the approver as in default mode, and runs.
    expect(canUseTool.mock.calls.map((c) => c[0])).toEqual(['ExitPlanMode', 'Bash'])
    expect(existsSync(file)).toBe(true)
    expect(toolNames(run.requests[2])).toContain('ExitPlanMode')
  })

  it('an approval that picks acceptEdits (a setMode update) leaves plan mode for it: edits then run unasked', async () => {
    const host = await hostWith()
    const file = join(box.project, 'accepted.txt')
    const canUseTool = vi.fn<CanUseTool>(async () => ({ behavior: 'allow', updatedPermissions: [{ type: 'setMode', mode: 'acceptEdits', destination: 'session' }] }))
    const run = await runScript([
      { reply: [exit('# Plan')] },
      { reply: [{ tool_use: { name: 'Write', input: { file_path: file, content: 'x' } } }] },
      { reply: 'done' },
    ], 'go', { host, cwd: box.project, permissionMode: 'plan', canUseTool })
    const mode = host.capabilities.get('permissionMode')!.mode()
    await host.close()
    expect(mode).toBe('acceptEdits')
    expect(statuses(run.messages)).toEqual(['acceptEdits'])
    expect(results(run.requests[1])[0].content).toContain('the permission mode is now acceptEdits')
    expect(canUseTool).toHaveBeenCalledTimes(1)
    expect(existsSync(file)).toBe(true)
  })

  it('refused: plan mode goes on, the model reads the refusal, and it is among the denials', async () => {
    const host = await hostWith()
    const canUseTool = vi.fn<CanUseTool>(async () => ({ behavior: 'deny', message: 'Keep planning: add a rollback step.' }))
    const run = await runScript([{ reply: [exit('# Plan')] }, { reply: 'revising' }], 'go', { host, cwd: box.project, permissionMode: 'plan', canUseTool })
    const mode = host.capabilities.get('permissionMode')!.mode()
    await host.close()
    expect(mode).toBe('plan')
    expect(statuses(run.messages)).toEqual([])
    expect(results(run.requests[1])[0]).toMatchObject({ is_error: true, content: 'Keep planning: add a rollback step.' })
    expect(run.result.permission_denials).toEqual([expect.objectContaining({ tool_name: 'ExitPlanMode', tool_input: { plan: '# Plan' } })])
  })

  it('with no one to approve (-p, no canUseTool): refused, saying why, and plan mode goes on', async () => {
    const host = await hostWith()
    const run = await runScript([{ reply: [exit('# Plan')] }, { reply: '# Plan' }], 'go', { host, cwd: box.project, permissionMode: 'plan' })
    const mode = host.capabilities.get('permissionMode')!.mode()
    await host.close()
    expect(mode).toBe('plan')
    expect(results(run.requests[1])[0]).toMatchObject({
      is_error: true,
      content: 'Permission to use ExitPlanMode requires approval (leaving plan mode needs the user to approve the plan), and no one can approve it in this non-interactive session.',
    })
  })

  it('outside plan mode nobody is asked: the call answers that there is no plan mode to leave', async () => {
    const host = await hostWith()
    const canUseTool = vi.fn<CanUseTool>(async () => ({ behavior: 'allow' }))
    const run = await runScript([{ reply: [exit('# Plan')] }, { reply: 'ok' }], 'go', { host, cwd: box.project, canUseTool })
    await host.close()
    expect(canUseTool).not.toHaveBeenCalled()
    expect(results(run.requests[1])[0]).toMatchObject({ is_error: true, content: expect.stringMatching(/^You are not in plan mode/) })
    expect(run.requests[0]!.body.messages[0].content.map((b: any) => b.text).join('\n')).not.toContain('Plan mode is on')
  })

  it('a subagent is not offered it; the main agent is', async () => {
    const host = await hostWith(agentMod)
    const run = await runScript([
      { reply: [{ tool_use: { name: 'Agent', input: { description: 'look', prompt: 'look around', subagent_type: 'general-purpose' } } }] },
      { reply: 'found nothing' },
      { reply: 'done' },
    ], 'go', { host, cwd: box.project, permissionMode: 'plan', canUseTool: async () => ({ behavior: 'allow' }) })
    await host.close()
    expect(toolNames(run.requests[0])).toContain('ExitPlanMode')
    expect(toolNames(run.requests[1])).toEqual(expect.arrayContaining(['Bash', 'Write']))
    expect(toolNames(run.requests[1])).not.toContain('ExitPlanMode')
  })
})

describe('plan mode and calls that change things', () => {
  it('an edit asks the approver (saying it is plan mode) rather than being refused; allowed, it runs', async () => {
    const host = await hostWith()
    const file = join(box.project, 'asked-in-plan.txt')
    const canUseTool = vi.fn<CanUseTool>(async () => ({ behavior: 'allow' }))
    const run = await runScript([
      { reply: [{ tool_use: { name: 'Write', input: { file_path: file, content: 'x' } } }] },
      { reply: 'done' },
    ], 'go', { host, cwd: box.project, permissionMode: 'plan', canUseTool })
    await host.close()
    expect(canUseTool).toHaveBeenCalledTimes(1)
    expect(canUseTool.mock.calls[0]![2].decisionReason).toBe('plan mode: Write can change files or systems, so it runs only if the user approves it')
    expect(results(run.requests[1])[0].is_error).toBeUndefined()
    expect(existsSync(file)).toBe(true)
  })

  it('with no one to approve, a command that writes is refused, naming plan mode; a read-only one runs', async () => {
    const host = await hostWith()
    const file = join(box.project, 'never-in-plan.txt')
    const run = await runScript([
      { reply: [{ tool_use: { name: 'Bash', input: { command: `touch ${file}` } } }, { tool_use: { name: 'Bash', input: { command: 'ls src' } } }] },
      { reply: 'done' },
    ], 'go', { host, cwd: box.project, permissionMode: 'plan' })
    await host.close()
    const [write, read] = results(run.requests[1])
    expect(write).toMatchObject({ is_error: true, content: expect.stringContaining('(plan mode: Bash can change files or systems') })
    expect(read).toMatchObject({ content: expect.stringContaining('a.ts') })
    expect(existsSync(file)).toBe(false)
  })
})

describe('modloop -p --permission-mode plan', () => {
  const run = (extra: string[]) => runCli(['-p', 'plan it', '--permission-mode', 'plan', '--output-format', 'stream-json', '--verbose', ...extra], {
    script: [{ reply: [exit('# Plan')] }, { reply: '# Plan' }], cwd: box.project, env: { MODLOOP_HOME: box.modloopHome, HOME: box.home }, stdin: '',
  })
  const lines = (out: string) => out.trim().split('\n').map((l) => JSON.parse(l))

  it('offers ExitPlanMode, and refuses the call as no one can approve it: plan mode goes on', async () => {
    const r = await run([])
    expect(r.code, r.err).toBe(0)
    const out = lines(r.out)
    expect(out[0]).toMatchObject({ subtype: 'init', permissionMode: 'plan', tools: expect.arrayContaining(['ExitPlanMode']) })
    expect(results(r.requests[1])[0]).toMatchObject({ is_error: true, content: expect.stringContaining('no one can approve it in this non-interactive session') })
    expect(statuses(out)).toEqual([])
    expect(out.at(-1)).toMatchObject({ type: 'result', subtype: 'success', permission_denials: [expect.objectContaining({ tool_name: 'ExitPlanMode' })] })
  })

  it('a PermissionRequest hook may approve it, picking the mode', async () => {
    const hook = join(box.root, 'approve-plan.sh')
    await writeFile(hook, `#!/bin/sh\ncat > /dev/null\necho '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedPermissions":[{"type":"setMode","mode":"acceptEdits","destination":"session"}]}}}'\n`)
    await chmod(hook, 0o755)
    const settings = JSON.stringify({ hooks: { PermissionRequest: [{ matcher: 'ExitPlanMode', hooks: [{ type: 'command', command: hook }] }] } })
    const r = await run(['--settings', settings])
    expect(r.code, r.err).toBe(0)
    expect(statuses(lines(r.out))).toEqual(['acceptEdits'])
    expect(shapeProblems(lines(r.out))).toEqual([])
    expect(results(r.requests[1])[0].content).toContain('User has approved your plan')
  })
})
