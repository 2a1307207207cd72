import { spawn } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ClientApp } from '@agentclientprotocol/sdk'
import { describe, expect, it } from 'vitest'
import { acpTestBed, startAgent, type AgentProcess } from '../helpers/acp-agent.js'
import { startFakeAnthropic, type FakeAnthropic } from '../helpers/fake-anthropic.js'

let server: FakeAnthropic | undefined
let agentProcess: AgentProcess | undefined
const { dir, envFor } = acpTestBed('modloop-acp-terminal-', () => [agentProcess, server], () => { agentProcess = server = undefined })

/** An editor's terminals: real processes, in the environment the editor adds to its own. */
function terminals(app: ClientApp): ClientApp {
  const running = new Map<string, { output: string; exit: Promise<number | null> }>()
  return app
    .onRequest('terminal/create', ({ params }) => {
      const env = { ...process.env, ...Object.fromEntries((params.env ?? []).map((v) => [v.name, v.value])) }
      const child = spawn(params.command, params.args ?? [], { cwd: params.cwd ?? dir, env })
      const t = { output: '', exit: new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code))) }
      child.stdout.on('data', (d: Buffer) => { t.output += d.toString() })
      const id = `term-${running.size + 1}`
      running.set(id, t)
      return { terminalId: id }
    })
    .onRequest('terminal/wait_for_exit', async ({ params }) => ({ exitCode: await running.get(params.terminalId)!.exit }))
    .onRequest('terminal/output', async ({ params }) => ({ output: running.get(params.terminalId)!.output, truncated: false }))
    .onRequest('terminal/release', () => ({}))
}

describe('modloop acp: Bash in an editor terminal', () => {
  it('runs in Bash\'s shell: settings env and the hooks\' env files reach the command, and a cd holds for the next call', async () => {
    mkdirSync(join(dir, 'sub'))
    mkdirSync(join(dir, '.claude'))
    writeFileSync(join(dir, '.claude', 'settings.json'), JSON.stringify({
      env: { FROM_SETTINGS: 'settings-value' },
      hooks: { SessionStart: [{ hooks: [{ type: 'command', command: 'echo "export FROM_HOOK=hook-value" >> "$CLAUDE_ENV_FILE"' }] }] },
    }))
    server = await startFakeAnthropic({
      script: [
        { reply: [{ tool_use: { id: 'toolu_cd', name: 'Bash', input: { command: 'cd sub' } } }] },
        { reply: [{ tool_use: { id: 'toolu_pwd', name: 'Bash', input: { command: 'pwd; echo "$FROM_SETTINGS $FROM_HOOK"' } } }] },
        { reply: 'done' },
      ],
    })
    const a = agentProcess = startAgent(['--allowedTools', 'Bash', '--trust-workspace'], { cwd: dir, env: envFor(server), setup: terminals })
    await a.agent.request('initialize', { protocolVersion: 1, clientCapabilities: { terminal: true } })
    const { sessionId } = await a.agent.request('session/new', { cwd: dir, mcpServers: [] })
    expect((await a.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'look around' }] })).stopReason).toBe('end_turn')
    const result = (server.requests[2]!.body.messages as { content: { content?: unknown }[] }[]).at(-1)!.content[0]!.content
    expect(result).toBe(`${join(dir, 'sub')}\nsettings-value hook-value`)
  })
})
