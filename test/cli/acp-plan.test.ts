import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { RequestPermissionRequest } from '@agentclientprotocol/sdk'
import { describe, expect, it } from 'vitest'
import { acpTestBed, startAgent, type AgentProcess } from '../helpers/acp-agent.js'
import { startFakeAnthropic, type FakeAnthropic } from '../helpers/fake-anthropic.js'

// Plan mode through `modloop acp`: the editor is asked to approve the plan, choosing the mode to leave it for.

let server: FakeAnthropic | undefined
let agentProcess: AgentProcess | undefined
const { dir, envFor } = acpTestBed('modloop-acp-plan-', () => [agentProcess, server], () => { agentProcess = server = undefined })
const init = { protocolVersion: 1, clientCapabilities: {} }
const PLAN = '# Plan\n1. Write planned.txt'

/** A session in plan mode whose editor answers the plan ask with `optionId`; the model then tries a Write. */
async function planned(optionId: string, file: string) {
  server = await startFakeAnthropic({
    script: [
      { reply: [{ tool_use: { id: 'toolu_exit', name: 'ExitPlanMode', input: { plan: PLAN } } }] },
      { reply: [{ tool_use: { id: 'toolu_write', name: 'Write', input: { file_path: file, content: 'x' } } }] },
      { reply: 'finished' },
    ],
  })
  const asks: RequestPermissionRequest[] = []
  const a = agentProcess = startAgent(['--permission-mode', 'plan'], {
    cwd: dir, env: envFor(server),
    setup: (app) => app.onRequest('session/request_permission', ({ params }) => {
      asks.push(params)
      // Only the plan is approved here; any other ask is rejected.
      return { outcome: { outcome: 'selected', optionId: params.toolCall.toolCallId === 'toolu_exit' ? optionId : 'reject_once' } }
    }),
  })
  await a.agent.request('initialize', init)
  const { sessionId, modes } = await a.agent.request('session/new', { cwd: dir, mcpServers: [] })
  expect(modes?.currentModeId).toBe('plan')
  const r = await a.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'plan it' }] })
  expect(r.stopReason).toBe('end_turn')
  const updates = a.updates.map((n) => n.update)
  const exitResult = JSON.stringify((server.requests[1]!.body.messages as unknown[]).at(-1))
  return { asks, updates, exitResult }
}

describe('ExitPlanMode in an ACP editor', () => {
  it('asks with the plan shown and the modes to leave it for; "auto-accept edits" switches to acceptEdits and the editor is told', async () => {
    const file = join(dir, 'planned.txt')
    const { asks, updates, exitResult } = await planned('acceptEdits', file)
    const call = updates.find((u) => u.sessionUpdate === 'tool_call' && u.toolCallId === 'toolu_exit')
    expect(call).toMatchObject({ title: 'Ready to code?', kind: 'switch_mode', content: [{ type: 'content', content: { type: 'text', text: PLAN } }] })
    expect(asks[0]!.toolCall).toMatchObject({ toolCallId: 'toolu_exit', title: 'Ready to code?', content: [{ type: 'content', content: { type: 'text', text: PLAN } }] })
    expect(asks[0]!.options.map((o) => [o.optionId, o.kind])).toEqual([['acceptEdits', 'allow_always'], ['default', 'allow_once'], ['plan', 'reject_once']])
    expect(updates.filter((u) => u.sessionUpdate === 'current_mode_update')).toEqual([{ sessionUpdate: 'current_mode_update', currentModeId: 'acceptEdits' }])
    expect(exitResult).toContain('User has approved your plan')
    // In acceptEdits the Write ran without an ask.
    expect(asks).toHaveLength(1)
    expect(existsSync(file)).toBe(true)
  })

  it('"No, keep planning" leaves the session in plan mode, and the model is told to keep planning', async () => {
    const file = join(dir, 'never-planned.txt')
    const { asks, updates, exitResult } = await planned('plan', file)
    expect(updates.filter((u) => u.sessionUpdate === 'current_mode_update')).toEqual([])
    expect(exitResult).toContain('wants to keep planning')
    // Still in plan mode, the Write is asked about (and rejected here).
    expect(asks.map((a) => a.toolCall.toolCallId)).toEqual(['toolu_exit', 'toolu_write'])
    expect(existsSync(file)).toBe(false)
  })
})
