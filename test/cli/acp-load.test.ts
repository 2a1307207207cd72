import { describe, expect, it } from 'vitest'
import { acpTestBed, startAgent, type AgentProcess } from '../helpers/acp-agent.js'
import { startFakeAnthropic, type FakeAnthropic } from '../helpers/fake-anthropic.js'

let server: FakeAnthropic | undefined
let agentProcess: AgentProcess | undefined
const { dir, envFor } = acpTestBed('modloop-acp-load-', () => [agentProcess, server], () => { agentProcess = server = undefined })
const init = { protocolVersion: 1, clientCapabilities: {} }
const shown = (a: AgentProcess, from: number) => a.updates.slice(from).map((n) => n.update).flatMap((u) => (
  (u.sessionUpdate === 'user_message_chunk' || u.sessionUpdate === 'agent_message_chunk') && u.content.type === 'text' ? [`${u.sessionUpdate}: ${u.content.text}`] : []
))

describe('modloop acp: session/load', () => {
  it('a compacted session replays each message once: the recent messages the compaction kept are not shown again', async () => {
    server = await startFakeAnthropic({ script: [{ reply: 'first answer' }, { reply: '<summary>the summary</summary>' }, { reply: 'second answer' }] })
    const a = agentProcess = startAgent([], { cwd: dir, env: envFor(server) })
    await a.agent.request('initialize', init)
    const { sessionId } = await a.agent.request('session/new', { cwd: dir, mcpServers: [] })
    for (const text of ['first prompt', '/compact', 'second prompt']) await a.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] })
    const from = a.updates.length
    await a.agent.request('session/load', { sessionId, cwd: dir, mcpServers: [] })
    expect(shown(a, from)).toEqual([
      'user_message_chunk: first prompt', 'agent_message_chunk: first answer',
      'user_message_chunk: second prompt', 'agent_message_chunk: second answer',
    ])
  })

  it('loading a session while a prompt of it runs answers that prompt cancelled, and the replay shows its call ended', async () => {
    server = await startFakeAnthropic({ script: [{ reply: [{ tool_use: { id: 'toolu_slow', name: 'Bash', input: { command: 'sleep 30' } } }] }] })
    const a = agentProcess = startAgent(['--allowedTools', 'Bash(sleep:*)'], { cwd: dir, env: envFor(server) })
    await a.agent.request('initialize', init)
    const { sessionId } = await a.agent.request('session/new', { cwd: dir, mcpServers: [] })
    const running = a.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'wait' }] })
    while (!a.updates.some((n) => n.update.sessionUpdate === 'tool_call')) await new Promise((r) => setTimeout(r, 20))
    const from = a.updates.length
    await a.agent.request('session/load', { sessionId, cwd: dir, mcpServers: [] })
    expect((await running).stopReason).toBe('cancelled')
    const replayed = a.updates.slice(from).flatMap((n) => (n.update.sessionUpdate === 'tool_call_update' && n.update.toolCallId === 'toolu_slow' ? [n.update.status] : []))
    expect(replayed.at(-1)).toBe('failed')
  })
})
