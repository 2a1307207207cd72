import { describe, expect, it } from 'vitest'
import { acpTestBed, startAgent, type AgentProcess } from '../helpers/acp-agent.js'
import { startFakeAnthropic, type FakeAnthropic } from '../helpers/fake-anthropic.js'

let server: FakeAnthropic | undefined
let agentProcess: AgentProcess | undefined
const { dir, envFor } = acpTestBed('modloop-acp-asks-', () => [agentProcess, server], () => { agentProcess = server = undefined })

describe('modloop acp: permission asks', () => {
  it('a subagent\'s call the editor is asked about is told running, then ended, though its other messages stay inside the Agent call', async () => {
    server = await startFakeAnthropic({
      script: [
        { reply: [{ tool_use: { id: 'toolu_agent', name: 'Agent', input: { description: 'helper', prompt: 'SUBTASK touch it', subagent_type: 'general-purpose', run_in_background: false } } }] },
        { reply: [{ tool_use: { id: 'toolu_sub', name: 'Bash', input: { command: 'touch sub-made' } } }], when: { firstUserText: 'SUBTASK' } },
        { reply: 'sub done', when: { firstUserText: 'SUBTASK' } },
        { reply: 'all done' },
      ],
    })
    const asked: string[] = []
    const a = agentProcess = startAgent([], {
      cwd: dir, env: envFor(server),
      setup: (app) => app.onRequest('session/request_permission', ({ params }) => {
        asked.push(params.toolCall.toolCallId)
        return { outcome: { outcome: 'selected', optionId: 'allow_once' } }
      }),
    })
    await a.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} })
    const { sessionId } = await a.agent.request('session/new', { cwd: dir, mcpServers: [] })
    expect((await a.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'delegate' }] })).stopReason).toBe('end_turn')
    expect(asked).toEqual(['toolu_sub'])
    const sub = a.updates.flatMap((n) => (n.update.sessionUpdate === 'tool_call_update' && n.update.toolCallId === 'toolu_sub' ? [n.update.status] : []))
    expect(sub).toEqual(['in_progress', 'completed'])
    // The subagent's own answer is not shown as the agent's message.
    expect(a.updates.some((n) => n.update.sessionUpdate === 'agent_message_chunk' && n.update.content.type === 'text' && n.update.content.text.includes('sub done'))).toBe(false)
  })

  it('a subagent\'s call run in an editor terminal without an ask sends no update for a call the editor was never shown', async () => {
    server = await startFakeAnthropic({
      script: [
        { reply: [{ tool_use: { id: 'toolu_agent', name: 'Agent', input: { description: 'helper', prompt: 'SUBTASK list', subagent_type: 'general-purpose', run_in_background: false } } }] },
        { reply: [{ tool_use: { id: 'toolu_sub', name: 'Bash', input: { command: 'ls' } } }], when: { firstUserText: 'SUBTASK' } },
        { reply: 'sub done', when: { firstUserText: 'SUBTASK' } },
        { reply: 'all done' },
      ],
    })
    const a = agentProcess = startAgent([], {
      cwd: dir, env: envFor(server),
      setup: (app) => app
        .onRequest('terminal/create', () => ({ terminalId: 'term-1' }))
        .onRequest('terminal/wait_for_exit', () => ({ exitCode: 0 }))
        .onRequest('terminal/output', () => ({ output: 'a-file\n', truncated: false, exitStatus: { exitCode: 0 } }))
        .onRequest('terminal/release', () => ({})),
    })
    await a.agent.request('initialize', { protocolVersion: 1, clientCapabilities: { terminal: true } })
    const { sessionId } = await a.agent.request('session/new', { cwd: dir, mcpServers: [] })
    expect((await a.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'delegate' }] })).stopReason).toBe('end_turn')
    expect(JSON.stringify(server.requests.find((r) => JSON.stringify(r.body.messages).includes('toolu_sub') && JSON.stringify(r.body.messages).includes('a-file')))).toBeDefined()
    const announced = new Set(a.updates.flatMap((n) => (n.update.sessionUpdate === 'tool_call' ? [n.update.toolCallId] : [])))
    const updated = a.updates.flatMap((n) => (n.update.sessionUpdate === 'tool_call_update' ? [n.update.toolCallId] : []))
    expect(updated.filter((id) => !announced.has(id))).toEqual([])
  })
})
