import { mkdtemp, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PLAN_REMINDER } from '../../mods/permissions/index.js'
import { PLAN_REMINDER_SPARSE } from '../../mods/permissions/plan-reminders.js'
import { runStreaming } from '../faults/stream-session.js'

// Plan mode through the Agent SDK's transport (`--permission-prompt-tool stdio`): the built CLI as
// a child process, the model entering plan mode itself and handing in its plan for approval.

let dir: string
beforeAll(async () => { dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-plan-sdk-'))) })
afterAll(() => rm(dir, { recursive: true, force: true }))

const statuses = (messages: Record<string, any>[]) => messages.filter((m) => m.type === 'system' && m.subtype === 'status').map((m) => m.permissionMode)

describe('plan mode over the SDK transport', () => {
  it('EnterPlanMode asks no one and switches to plan; ExitPlanMode is asked as needing the user, and approved goes back', async () => {
    const run = await runStreaming(dir, {
      script: [
        { reply: [{ tool_use: { id: 'toolu_enter', name: 'EnterPlanMode', input: {} } }] },
        { reply: [{ tool_use: { id: 'toolu_exit', name: 'ExitPlanMode', input: { plan: '# Plan' } } }] },
        { reply: 'done' },
      ],
      inputs: ['add a feature'], args: ['--permission-prompt-tool', 'stdio', '--permission-mode', 'acceptEdits'],
      canUseTool: () => ({ behavior: 'allow', updatedInput: { plan: '# Plan' } }),
    })
    expect(run.code).toBe(0)
    expect(run.messages[0]).toMatchObject({ subtype: 'init', permissionMode: 'acceptEdits', tools: expect.arrayContaining(['EnterPlanMode', 'ExitPlanMode']) })
    const asks = run.messages.filter((m) => m.type === 'control_request')
    expect(asks.map((m) => m.request)).toEqual([
      expect.objectContaining({ subtype: 'can_use_tool', tool_name: 'ExitPlanMode', input: { plan: '# Plan' }, tool_use_id: 'toolu_exit', requires_user_interaction: true }),
    ])
    expect(statuses(run.messages)).toEqual(['plan', 'acceptEdits'])
    expect(run.result).toMatchObject({ subtype: 'success', permission_denials: [] })
  })

  it('the plan reminder comes in full at the first prompt, then briefly every sixth prompt, in full every fifth time', async () => {
    const prompts = Array.from({ length: 32 }, (_, i) => `p${i + 1}`)
    const run = await runStreaming(dir, {
      script: prompts.map((p) => ({ reply: `re ${p}` })), inputs: prompts, args: ['--permission-prompt-tool', 'stdio', '--permission-mode', 'plan'],
    })
    expect(run.code).toBe(0)
    const told = run.requests.map((r: any) => {
      const text = JSON.stringify(r.body.messages.at(-1).content)
      return text.includes(JSON.stringify(PLAN_REMINDER).slice(1, -1)) ? 'full' : text.includes(JSON.stringify(PLAN_REMINDER_SPARSE).slice(1, -1)) ? 'sparse' : '-'
    })
    const at = (kind: string) => told.flatMap((t, i) => (t === kind ? [i + 1] : []))
    expect(at('full')).toEqual([1, 31])
    expect(at('sparse')).toEqual([7, 13, 19, 25])
  })

  it('after /compact the next prompt in plan mode gets the full reminder again', async () => {
    const run = await runStreaming(dir, {
      script: [{ reply: 're p1' }, { reply: 're p2' }, { reply: 'The summary.' }, { reply: 're p3' }],
      inputs: ['p1', 'p2', '/compact', 'p3'], args: ['--permission-prompt-tool', 'stdio', '--permission-mode', 'plan'],
    })
    expect(run.code).toBe(0)
    const full = JSON.stringify(PLAN_REMINDER).slice(1, -1)
    const told = run.requests.map((r: any) => JSON.stringify(r.body.messages.at(-1).content).includes(full))
    expect(told).toEqual([true, false, false, true])
  })
})
