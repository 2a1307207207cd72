import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { mcp, stdio, tempDirs } from '../mcp/helpers.js'
import { makeBox, writeSettings, run, dump, dumped, lastUserTexts, notices, type Box } from './helpers.js'

let box: Box
beforeEach(async () => { box = await makeBox() })
afterEach(async () => { await box.remove() })

const prompt = (text: string, extra: Record<string, unknown> = {}) => ({ type: 'prompt', prompt: text, ...extra })

describe('prompt hooks ask the session model', () => {
  it('a Stop prompt hook answering {"ok":false} continues the turn with its reason; {"ok":true} lets it end', async () => {
    await writeSettings(box, { Stop: [{ hooks: [prompt('Did the agent run the tests? $ARGUMENTS')] }] })
    const r = await run(box, [
      { reply: 'done' },
      { reply: '{"ok": false, "reason": "run the unit tests before stopping"}' },
      { reply: 'tests ran, done' },
      // Fenced JSON is read too (models wrap it).
      { reply: '```json\n{"ok": true}\n```' },
    ])
    expect(r.result).toMatchObject({ terminal_reason: 'completed', result: 'tests ran, done' })
    const hookCall = r.requests[1]!.body
    expect(hookCall.tools ?? []).toEqual([])
    expect(hookCall.system).toBeDefined()
    const asked = lastUserTexts(hookCall).join('\n')
    expect(asked).toContain('Did the agent run the tests?')
    expect(JSON.parse(asked.slice(asked.indexOf('{')))).toMatchObject({ hook_event_name: 'Stop', last_assistant_message: 'done', stop_hook_active: false })
    // The feedback names the condition that failed, as Claude Code's does.
    expect(lastUserTexts(r.requests[2]!.body).join('\n')).toContain('Stop hook feedback:\n[Did the agent run the tests? $ARGUMENTS]: run the unit tests before stopping')
    expect(JSON.parse(lastUserTexts(r.requests[3]!.body).join('\n').match(/\{.*\}/s)![0])).toMatchObject({ stop_hook_active: true })
    expect(r.requests).toHaveLength(4)
  })

  it('a reply that is not the {ok, reason} object is a hook error naming the hook; the turn ends as it would', async () => {
    await writeSettings(box, { Stop: [{ hooks: [prompt('Check the work.')] }] })
    const r = await run(box, [{ reply: 'done' }, { reply: 'Looks fine to me!' }])
    expect(r.result).toMatchObject({ terminal_reason: 'completed', result: 'done' })
    expect(notices(r.messages).join('\n')).toMatch(/Stop hook error .*Check the work\.: the model reply is not/)
    // Without $ARGUMENTS the input is appended under a label, as Claude Code appends it.
    expect(lastUserTexts(r.requests[1]!.body).join('\n')).toMatch(/^Check the work\.\n\nARGUMENTS: \{"session_id":/)
  })

  it('a PreToolUse prompt hook\'s ok:false refuses the call in the hook\'s words and ends the turn', async () => {
    await writeSettings(box, { PreToolUse: [{ matcher: 'Echo', hooks: [prompt('Is this safe?')] }] })
    const r = await run(box, [
      { reply: [{ tool_use: { id: 'toolu_e', name: 'Echo', input: { text: 'hi' } } }] },
      { reply: '{"ok": false, "reason": "no echoes"}' },
    ])
    expect(r.requests).toHaveLength(2)
    expect(r.result).toMatchObject({ terminal_reason: 'hook_stopped' })
    const results = r.messages.flatMap((m) => (m.type === 'user' && Array.isArray(m.message.content) ? m.message.content : []))
    expect(results).toContainEqual(expect.objectContaining({ type: 'tool_result', is_error: true, content: 'PreToolUse:Echo hook error: [Is this safe?]: no echoes' }))
  })

  it('a model slower than the hook\'s timeout is reported as a timeout, and the call goes ahead', async () => {
    await writeSettings(box, { PreToolUse: [{ matcher: 'Echo', hooks: [prompt('Is this safe?', { timeout: 0.2 })] }] })
    const r = await run(box, [
      { reply: [{ tool_use: { id: 'toolu_e', name: 'Echo', input: { text: 'hi' } } }] },
      { reply: '{"ok": false, "reason": "too late"}', delayMs: 1000 },
      { reply: 'echoed' },
    ])
    expect(notices(r.messages).join('\n')).toMatch(/PreToolUse:Echo hook error .*Is this safe\?: timed out after 0\.2 s/)
    expect(r.requests[2]!.body.messages.at(-1).content[0]).not.toMatchObject({ is_error: true })
    expect(r.result).toMatchObject({ terminal_reason: 'completed', result: 'echoed' })
  })
})

describe('agent hooks run a verifier subagent', () => {
  it('an agent hook on PreToolUse denies the call with the subagent\'s reason, and its own work raises no hooks', async () => {
    await writeSettings(box, {
      PreToolUse: [{ matcher: 'Echo', hooks: [{ type: 'agent', prompt: 'Is this echo safe? $ARGUMENTS' }, { type: 'command', command: dump(box, 'PreToolUse') }] }],
      SubagentStart: [{ hooks: [{ type: 'command', command: dump(box, 'SubagentStart') }] }],
      SubagentStop: [{ hooks: [{ type: 'command', command: dump(box, 'SubagentStop') }] }],
    })
    const r = await run(box, [
      { reply: [{ tool_use: { id: 'toolu_e', name: 'Echo', input: { text: 'secret' } } }] },
      // The verifier subagent's reply.
      { reply: '{"ok": false, "reason": "echo must not print secrets"}' },
      { reply: 'understood' },
    ])
    const verifier = r.requests[1]!.body
    expect(lastUserTexts(verifier).join('\n')).toContain('Is this echo safe?')
    expect(verifier.system.map?.((b: { text: string }) => b.text).join('') ?? verifier.system).toContain('verify a hook condition')
    const result = r.requests[2]!.body.messages.at(-1).content[0]
    expect(result).toMatchObject({ is_error: true })
    expect(result.content).toBe('PreToolUse:Echo hook error: Agent hook condition was not met: echo must not print secrets')
    expect(await dumped(box, 'PreToolUse')).toHaveLength(1)
    expect(await dumped(box, 'SubagentStart')).toEqual([])
    expect(await dumped(box, 'SubagentStop')).toEqual([])
  })
})

describe('mcp_tool hooks call the mcp mod\'s tools', () => {
  let dirs: Awaited<ReturnType<typeof tempDirs>>
  beforeAll(async () => { dirs = await tempDirs() })
  afterAll(() => dirs.remove())

  it('a UserPromptSubmit mcp_tool hook gets the tool text as context, with ${prompt} substituted', async () => {
    await writeSettings(box, { UserPromptSubmit: [{ hooks: [{ type: 'mcp_tool', server: 'fixture', tool: 'echo', input: { text: 'about ${prompt}' } }] }] })
    const r = await run(box, [{ reply: 'ok' }], 'the weather', {
      mods: [mcp({ home: dirs.home, servers: { fixture: stdio() } })],
    })
    expect(r.error).toBeUndefined()
    expect(lastUserTexts(r.requests[0]!.body).join('\n')).toContain('echo: about the weather')
  })

  it('a server that is not connected is a non-blocking hook error', async () => {
    await writeSettings(box, { UserPromptSubmit: [{ hooks: [{ type: 'mcp_tool', server: 'nowhere', tool: 'echo' }] }] })
    const r = await run(box, [{ reply: 'ok' }], 'hello')
    expect(r.result.terminal_reason).toBe('completed')
    expect(notices(r.messages).join('\n')).toContain('mcp__nowhere__echo cannot be called')
  })
})

describe('modloop hooks test runs prompt hooks too', () => {
  it('asks the model once and prints the merged verdict', async () => {
    vi.stubEnv('HOME', box.home)
    vi.stubEnv('CLAUDE_CONFIG_DIR', '')
    try {
      await writeSettings(box, { Stop: [{ hooks: [prompt('Are we done? $ARGUMENTS')] }] })
      const r = await runCli(['hooks', 'test', 'Stop', '--json'], {
        script: [{ reply: '{"ok": false, "reason": "not yet"}' }], cwd: box.project, env: { HOME: box.home, MODLOOP_HOME: join(box.root, 'modloop-home') },
      })
      expect(r.code, r.err).toBe(2)
      expect(JSON.parse(r.out).merged).toMatchObject({ blocked: true, blockReason: '[Are we done? $ARGUMENTS]: not yet' })
      expect(lastUserTexts(r.requests[0]!.body).join('\n')).toContain('Are we done?')
    } finally {
      vi.unstubAllEnvs()
    }
  })
})
