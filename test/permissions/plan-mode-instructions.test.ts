import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PLAN_REMINDER } from '../../mods/permissions/index.js'
import { PLAN_REMINDER_SPARSE } from '../../mods/permissions/plan-reminders.js'
import { runScript } from '../loop/helpers.js'
import { conversation } from '../sdk/conversation.js'
import { permissionsWith, planHost, sandbox, type Sandbox } from './helpers.js'

// planModeInstructions: the application's own plan-mode workflow, in the reminder the model reads.

let box: Sandbox
beforeAll(async () => { box = await sandbox() })
afterAll(() => box.remove())

const WORKFLOW = 'Interview the user about scope first, then write the plan as a numbered list of steps.'
const permissions = () => permissionsWith({ home: box.home, trustStore: join(box.modloopHome, 'trusted.json') })
const firstText = (run: { requests: { body: any }[] }) => (run.requests[0]!.body.messages[0].content as any[]).map((b) => b.text).join('\n')

describe('planModeInstructions', () => {
  it('stands in the full reminder between what plan mode forbids and how the plan is handed in', async () => {
    const host = await planHost(box)
    const run = await runScript([{ reply: 'planning' }], 'add a feature', { host, cwd: box.project, permissionMode: 'plan', planModeInstructions: WORKFLOW })
    await host.close()
    const text = firstText(run)
    const forbids = text.indexOf('Plan mode is on. Research and plan only')
    const own = text.indexOf(WORKFLOW)
    const handIn = text.indexOf('When the plan is ready, call ExitPlanMode')
    expect(forbids).toBeGreaterThanOrEqual(0)
    expect(own).toBeGreaterThan(forbids)
    expect(handIn).toBeGreaterThan(own)
    expect(text).not.toContain(PLAN_REMINDER)
  })

  it('without it (or blank) the reminder is modloop\'s own; outside plan mode the workflow is never sent', async () => {
    const plain = await runScript([{ reply: 'planning' }], 'add a feature', { mods: [permissions()], cwd: box.project, permissionMode: 'plan', planModeInstructions: '  ' })
    expect(firstText(plain)).toContain(PLAN_REMINDER)
    const off = await runScript([{ reply: 'done' }], 'add a feature', { mods: [permissions()], cwd: box.project, permissionMode: 'default', planModeInstructions: WORKFLOW })
    expect(JSON.stringify(off.requests[0]!.body)).not.toContain(WORKFLOW)
  })

  it('EnterPlanMode\'s reminder carries it; the brief reminders between the full ones do not', async () => {
    const host = await planHost(box)
    const canUseTool = async () => ({ behavior: 'deny' as const, message: 'no' })
    const c = await conversation([
      { reply: [{ tool_use: { name: 'EnterPlanMode', input: {} } }] }, { reply: 'entered' },
      ...Array.from({ length: 6 }, (_, i) => ({ reply: `p${i}` })),
    ], { host, cwd: box.project, canUseTool, planModeInstructions: WORKFLOW })
    await c.say('big change')
    for (let i = 0; i < 6; i++) await c.say(`prompt ${i}`)
    await c.end()
    await host.close()
    const entered = c.server.requests[1]!.body as any
    expect(JSON.stringify(entered.messages.at(-1))).toContain(WORKFLOW)
    // The sixth prompt after it is due a reminder: the brief one, without the workflow.
    const sixth = (c.server.requests.at(-1)!.body as any).messages.at(-1)
    expect(JSON.stringify(sixth)).toContain(PLAN_REMINDER_SPARSE)
    expect(JSON.stringify(sixth)).not.toContain(WORKFLOW)
  })

  it('a value that is not text is reported and plan mode keeps its own words', async () => {
    const logged: string[] = []
    const run = await runScript([{ reply: 'planning' }], 'go', { mods: [permissions()], cwd: box.project, permissionMode: 'plan', planModeInstructions: 42 as never, log: (l) => void logged.push(l) })
    expect(logged.join('\n')).toContain('the planModeInstructions option must be text (got number)')
    expect(firstText(run)).toContain(PLAN_REMINDER)
  })
})
