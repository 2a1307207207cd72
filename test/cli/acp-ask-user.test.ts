import type { RequestPermissionRequest } from '@agentclientprotocol/sdk'
import { describe, expect, it } from 'vitest'
import { acpTestBed, startAgent, type AgentProcess } from '../helpers/acp-agent.js'
import { startFakeAnthropic, type FakeAnthropic } from '../helpers/fake-anthropic.js'

// AskUserQuestion through `modloop acp`: each question is a permission request whose options are its own.

let server: FakeAnthropic | undefined
let agentProcess: AgentProcess | undefined
const { dir, envFor } = acpTestBed('modloop-acp-ask-', () => [agentProcess, server], () => { agentProcess = server = undefined })
const option = (label: string) => ({ label, description: `about ${label}` })
const questions = [
  { question: 'Which library?', header: 'Library', options: [option('dayjs'), option('luxon')], multiSelect: false },
  { question: 'Which database?', header: 'Database', options: [option('sqlite'), option('postgres')], multiSelect: false },
]

describe('AskUserQuestion in an ACP editor', () => {
  it("asks each question with its options; the editor's picks are the answers the model reads", async () => {
    server = await startFakeAnthropic({ script: [{ reply: [{ tool_use: { id: 'toolu_ask', name: 'AskUserQuestion', input: { questions } } }] }, { reply: 'noted' }] })
    const asks: RequestPermissionRequest[] = []
    const a = agentProcess = startAgent([], {
      cwd: dir, env: envFor(server),
      setup: (app) => app.onRequest('session/request_permission', ({ params }) => {
        asks.push(params)
        return { outcome: { outcome: 'selected', optionId: asks.length === 1 ? '1' : '0' } }
      }),
    })
    await a.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} })
    const { sessionId } = await a.agent.request('session/new', { cwd: dir, mcpServers: [] })
    expect((await a.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'ask me' }] })).stopReason).toBe('end_turn')
    expect(asks.map((q) => [q.toolCall.title, q.options.map((o) => [o.optionId, o.name, o.kind])])).toEqual([
      ['Library: Which library?', [['0', 'dayjs — about dayjs', 'allow_once'], ['1', 'luxon — about luxon', 'allow_once'], ['decline', 'Decline to answer', 'reject_once']]],
      ['Database: Which database?', [['0', 'sqlite — about sqlite', 'allow_once'], ['1', 'postgres — about postgres', 'allow_once'], ['decline', 'Decline to answer', 'reject_once']]],
    ])
    const result = (server.requests[1]!.body.messages as { content: { content: unknown }[] }[]).at(-1)!.content[0]!
    expect(result.content).toBe('Your questions have been answered: "Which library?"="luxon", "Which database?"="sqlite". You can now continue with these answers in mind.')
  })
})
