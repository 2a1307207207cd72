import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { defineMod } from '../../core/mod/define.js'
import permissions from '../../mods/permissions/index.js'
import transcripts from '../../mods/transcripts/index.js'
import { makeBox, dump, dumped, writeSettings, cmd, run, script, lastUserTexts, json, type Box } from './helpers.js'

let box: Box
beforeEach(async () => { box = await makeBox() })
afterEach(async () => { await box.remove() })

const perms = (b: Box) => defineMod({ ...permissions, register: (on, _o, $) => permissions.register(on, permissions.options!.parse({ home: b.home, trustStore: b.store, managedDir: false }), $) })
const echo = (text: string, id = 'toolu_e') => ({ tool_use: { id, name: 'Echo', input: { text } } })

describe('PreToolUse', () => {
  it('exit 2 denies the call; stderr reaches the model as the reason', async () => {
    await writeSettings(box, { PreToolUse: [{ matcher: 'Echo', hooks: [cmd("echo 'echo is off limits' >&2; exit 2")] }] })
    const r = await run(box, [{ reply: [echo('hi')] }, { reply: 'ok' }])
    const result = r.requests[1]!.body.messages[2].content[0]
    expect(result).toMatchObject({ is_error: true })
    expect(result.content).toContain('echo is off limits')
    expect(r.result.permission_denials).toHaveLength(1)
  })

  it('a deny reads "<hook> hook error: <reason>" to the model, "Blocked by hook" without a reason, as Claude Code words it', async () => {
    await writeSettings(box, {
      PreToolUse: [
        { matcher: 'Touch', hooks: [cmd(json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no touching' } }))] },
        { matcher: 'Echo', hooks: [cmd(json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny' } }))] },
      ],
    })
    const r = await run(box, [{ reply: [{ tool_use: { id: 'toolu_t', name: 'Touch', input: { label: 'x' } } }, echo('hi')] }, { reply: 'ok' }])
    const [touch, e] = r.requests[1]!.body.messages[2].content
    expect(touch).toMatchObject({ is_error: true, content: 'PreToolUse:Touch hook error: no touching' })
    expect(e).toMatchObject({ is_error: true, content: 'PreToolUse:Echo hook error: Blocked by hook' })
  })

  it('updatedInput rewrites the call, and the tool sees the rewrite', async () => {
    await writeSettings(box, { PreToolUse: [{ matcher: 'Echo', hooks: [cmd(json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { text: 'rewritten' } } }))] }] })
    const r = await run(box, [{ reply: [echo('original')] }, { reply: 'ok' }])
    expect(r.requests[1]!.body.messages[2].content[0]).toMatchObject({ content: 'rewritten' })
  })

  it('additionalContext reaches the model beside the tool result', async () => {
    await writeSettings(box, { PreToolUse: [{ hooks: [cmd(json({ hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: 'the echo service is slow today' } }))] }] })
    const r = await run(box, [{ reply: [echo('hi')] }, { reply: 'ok' }])
    expect(lastUserTexts(r.requests[1]!.body).join('\n')).toContain('PreToolUse:Echo hook additional context: the echo service is slow today')
  })

  it('systemMessage is shown as "<hook> says: …", a notice, as Claude Code shows it', async () => {
    await writeSettings(box, { PostToolUse: [{ matcher: 'Echo', hooks: [cmd(json({ systemMessage: 'lint ran' }))] }] })
    const r = await run(box, [{ reply: [echo('hi')] }, { reply: 'ok' }])
    const shown = r.messages.filter((m) => m.type === 'system' && m.subtype === 'informational')
    expect(shown).toContainEqual(expect.objectContaining({ level: 'notice', content: 'PostToolUse:Echo says: lint ran' }))
  })

  it('a deny keeps its additionalContext beside the refusal, and so does a call a deny rule refuses', async () => {
    const deny = cmd(json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no touching', additionalContext: 'touch is under review' } }))
    const note = cmd(json({ hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: 'echo is logged' } }))
    await writeSettings(box, { PreToolUse: [{ matcher: 'Touch', hooks: [deny] }, { matcher: 'Echo', hooks: [note] }] },
      join(box.project, '.claude', 'settings.json'), { permissions: { deny: ['Echo'] } })
    const r = await run(box, [{ reply: [{ tool_use: { id: 'toolu_t', name: 'Touch', input: { label: 'x' } } }, echo('hi')] }, { reply: 'ok' }], 'go', { mods: [perms(box)] })
    const [touch, e] = r.requests[1]!.body.messages[2].content
    expect(touch).toMatchObject({ is_error: true, content: expect.stringContaining('no touching') })
    expect(e).toMatchObject({ is_error: true, content: expect.stringContaining('denied by the rule Echo') })
    const texts = lastUserTexts(r.requests[1]!.body).join('\n')
    expect(texts).toContain('PreToolUse:Touch hook additional context: touch is under review')
    expect(texts).toContain('PreToolUse:Echo hook additional context: echo is logged')
  })

  it('a hook deny is final even in bypassPermissions; a hook allow does not override a deny rule', async () => {
    await writeSettings(box, {
      PreToolUse: [
        { matcher: 'Touch', hooks: [cmd(json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no touching' } }))] },
        { matcher: 'Echo', hooks: [cmd(json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } }))] },
      ],
    }, join(box.project, '.claude', 'settings.json'), { permissions: { deny: ['Echo'] } })
    const perms = defineMod({ ...permissions, register: (on, _o, $) => permissions.register(on, permissions.options!.parse({ home: box.home, trustStore: box.store }), $) })
    const r = await run(box, [{ reply: [{ tool_use: { id: 'toolu_t', name: 'Touch', input: { label: 'x' } } }, echo('hi')] }, { reply: 'ok' }], 'go', { mods: [perms], permissionMode: 'bypassPermissions' })
    const [touch, e] = r.requests[1]!.body.messages[2].content
    expect(touch.content).toContain('no touching')
    expect(e.is_error).toBe(true)
    expect(e.content).toContain('denied by the rule Echo')
  })

  it('a hook allow approves what only the mode would ask about', async () => {
    await writeSettings(box, { PreToolUse: [{ matcher: 'Touch', hooks: [cmd(json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } }))] }] })
    const perms = defineMod({ ...permissions, register: (on, _o, $) => permissions.register(on, permissions.options!.parse({ home: box.home, trustStore: box.store }), $) })
    const r = await run(box, [{ reply: [{ tool_use: { id: 'toolu_t', name: 'Touch', input: { label: 'x' } } }] }, { reply: 'ok' }], 'go', { mods: [perms] })
    expect(r.requests[1]!.body.messages[2].content[0]).toMatchObject({ content: 'touched x' })
  })

  it('a hook allow meets an ask rule: the call still asks', async () => {
    const allow = cmd(json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } }))
    await writeSettings(box, { PreToolUse: [{ matcher: 'Touch', hooks: [allow] }] }, join(box.project, '.claude', 'settings.json'), { permissions: { ask: ['Touch'] } })
    const asked: string[] = []
    const canUseTool = async (tool: string) => {
      asked.push(tool)
      return { behavior: 'deny' as const, message: 'the person said no' }
    }
    const r = await run(box, [{ reply: [{ tool_use: { id: 'toolu_t', name: 'Touch', input: { label: 'x' } } }] }, { reply: 'ok' }], 'go', { mods: [perms(box)], canUseTool })
    expect(asked).toEqual(['Touch'])
    expect(r.requests[1]!.body.messages[2].content[0]).toMatchObject({ is_error: true, content: expect.stringContaining('the person said no') })
  })

  it('a hook ask forces the question where the rules allow', async () => {
    const ask = cmd(json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: 'check labels first' } }))
    await writeSettings(box, { PreToolUse: [{ matcher: 'Touch', hooks: [ask] }] })
    const asked: unknown[] = []
    const canUseTool = async (tool: string, input: Record<string, unknown>) => {
      asked.push({ tool, input })
      return { behavior: 'allow' as const }
    }
    const r = await run(box, [{ reply: [{ tool_use: { id: 'toolu_t', name: 'Touch', input: { label: 'x' } } }] }, { reply: 'ok' }], 'go', { mods: [perms(box)], allowedTools: ['Touch'], canUseTool })
    expect(asked).toEqual([{ tool: 'Touch', input: { label: 'x' } }])
    expect(r.requests[1]!.body.messages[2].content[0]).toMatchObject({ content: 'touched x' })
    // Without the hook the allow rule answers and nobody is asked.
    await writeSettings(box, {})
    asked.length = 0
    await run(box, [{ reply: [{ tool_use: { id: 'toolu_t', name: 'Touch', input: { label: 'x' } } }] }, { reply: 'ok' }], 'go', { mods: [perms(box)], allowedTools: ['Touch'], canUseTool })
    expect(asked).toEqual([])
  })
})

describe('PostToolUse', () => {
  it('context and a block reason reach the model; updatedToolOutput replaces what it reads', async () => {
    await writeSettings(box, { PostToolUse: [{ matcher: 'Echo', hooks: [cmd(json({ decision: 'block', reason: 'lint failed', hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'formatted', updatedToolOutput: 'HI' } }))] }] })
    const r = await run(box, [{ reply: [echo('hi')] }, { reply: 'ok' }])
    const texts = lastUserTexts(r.requests[1]!.body)
    expect(texts[0]).toBe('HI')
    expect(texts.join('\n')).toContain('formatted')
    expect(texts.join('\n')).toContain('lint failed')
  })

  it('each blocking hook is named by its command beside its reason', async () => {
    const jsonBlock = json({ decision: 'block', reason: 'lint failed' })
    const exit2 = "echo 'tests failed' >&2; exit 2"
    await writeSettings(box, { PostToolUse: [{ matcher: 'Echo', hooks: [cmd(jsonBlock), cmd(exit2)] }] })
    const r = await run(box, [{ reply: [echo('hi')] }, { reply: 'ok' }])
    const texts = lastUserTexts(r.requests[1]!.body).join('\n')
    expect(texts).toContain(`PostToolUse:Echo hook blocking error from command: "${jsonBlock}": lint failed`)
    expect(texts).toContain(`PostToolUse:Echo hook blocking error from command: "${exit2}": [${exit2}]: tests failed\n`)
  })

  it('continue:false ends the turn after the batch as hook_stopped', async () => {
    await writeSettings(box, { PostToolUse: [{ hooks: [cmd(json({ continue: false, stopReason: 'enough for today' }))] }] })
    const r = await run(box, [{ reply: [echo('hi')] }, { reply: 'never sent' }])
    expect(r.result).toMatchObject({ terminal_reason: 'hook_stopped', result: 'enough for today' })
    expect(r.requests).toHaveLength(1)
  })
})

describe('UserPromptSubmit', () => {
  it('a block drops the prompt: no model request', async () => {
    await writeSettings(box, { UserPromptSubmit: [{ hooks: [cmd("echo 'no secrets in prompts' >&2; exit 2")] }] })
    const r = await run(box, [{ reply: 'never' }], 'my password is hunter2')
    expect(r.requests).toHaveLength(0)
    expect(r.result.terminal_reason).toBe('hook_stopped')
    expect(r.result.result).toContain('no secrets in prompts')
  })

  it('a refused prompt is no error: the block quotes the prompt unless suppressOriginalPrompt; continue:false says it stopped', async () => {
    const block = (extra: Record<string, unknown>) => json({ decision: 'block', reason: 'not now', ...extra })
    await writeSettings(box, { UserPromptSubmit: [{ hooks: [cmd(block({}))] }] })
    const quoted = await run(box, [{ reply: 'never' }], 'deploy it')
    expect(quoted.result).toMatchObject({ subtype: 'success', is_error: false, result: 'UserPromptSubmit operation blocked by hook:\nnot now\n\nOriginal prompt: deploy it' })
    await writeSettings(box, { UserPromptSubmit: [{ hooks: [cmd(block({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', suppressOriginalPrompt: true } }))] }] })
    const suppressed = await run(box, [{ reply: 'never' }], 'deploy it')
    expect(suppressed.result).toMatchObject({ is_error: false, result: 'UserPromptSubmit operation blocked by hook:\nnot now' })
    await writeSettings(box, { UserPromptSubmit: [{ hooks: [cmd(json({ continue: false, stopReason: 'frozen' }))] }] })
    const stopped = await run(box, [{ reply: 'never' }], 'deploy it')
    expect(stopped.result).toMatchObject({ is_error: false, result: 'Operation stopped by hook: frozen' })
  })

  it('plain stdout and additionalContext go beside the prompt; SessionStart context joins the first prompt', async () => {
    await writeSettings(box, {
      UserPromptSubmit: [{ hooks: [cmd("echo 'today is a holiday'")] }],
      SessionStart: [{ hooks: [cmd(json({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'branch main is clean' } }))] }],
    })
    const r = await run(box, [{ reply: 'ok' }], 'hello')
    const texts = lastUserTexts(r.requests[0]!.body).join('\n')
    expect(texts).toContain('hello')
    expect(texts).toContain('today is a holiday')
    expect(texts).toContain('branch main is clean')
  })

  it('plain stdout is headed "<hook> hook success:", additionalContext "<hook> hook additional context:" (SessionStart bare), as Claude Code heads them', async () => {
    await writeSettings(box, {
      UserPromptSubmit: [{ hooks: [cmd("echo 'today is a holiday'")] }],
      SessionStart: [{ hooks: [cmd("echo 'on branch main'"), cmd(json({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'branch main is clean' } }))] }],
    })
    const r = await run(box, [{ reply: 'ok' }], 'hello')
    const texts = lastUserTexts(r.requests[0]!.body).join('\n')
    expect(texts).toContain('UserPromptSubmit hook success: today is a holiday')
    expect(texts).toContain('SessionStart:startup hook success: on branch main')
    expect(texts).toContain('SessionStart hook additional context: branch main is clean')
  })
})

describe('Stop', () => {
  it('a block continues the turn with the reason; stop_hook_active is true on re-entry', async () => {
    const marker = join(box.out, 'seen')
    const hook = await script(box, 'stop.sh', `${dump(box, 'Stop')} <&0\nif [ -e ${marker} ]; then exit 0; fi\ntouch ${marker}\necho 'run the tests first' >&2\nexit 2\n`)
    await writeSettings(box, { Stop: [{ hooks: [cmd(`sh ${hook}`)] }] })
    const r = await run(box, [{ reply: 'done' }, { reply: 'tests pass, done' }])
    expect(r.result).toMatchObject({ terminal_reason: 'completed', result: 'tests pass, done' })
    expect(lastUserTexts(r.requests[1]!.body).join('\n')).toContain('run the tests first')
    expect((await dumped(box, 'Stop')).map((s) => s.stop_hook_active)).toEqual([false, true])
  })

  it("a block's feedback is on the stream as a synthetic user message, as in Claude Code, and recorded once", async () => {
    vi.stubEnv('MODLOOP_HOME', box.home)
    try {
      const marker = join(box.out, 'seen-once')
      const hook = await script(box, 'stop-once.sh', `if [ -e ${marker} ]; then exit 0; fi\ntouch ${marker}\necho 'run the tests first' >&2\nexit 2\n`)
      await writeSettings(box, { Stop: [{ hooks: [cmd(`sh ${hook}`)] }] })
      const r = await run(box, [{ reply: 'done' }, { reply: 'tests pass, done' }], 'go', { mods: [transcripts] })
      const shown = r.messages.filter((m: any) => m.type === 'user' && m.isSynthetic && JSON.stringify(m.message.content).includes('run the tests first'))
      expect(shown).toHaveLength(1)
      // Resumed, the history holds the feedback once, where the turn had it.
      const again = await run(box, [{ reply: 'ok' }], 'and now', { mods: [transcripts], resume: r.result.session_id })
      const sent = JSON.stringify(again.requests[0]!.body.messages)
      expect(sent.split('run the tests first').length - 1).toBe(1)
    } finally {
      vi.unstubAllEnvs()
    }
  })

  it('caps consecutive continuations at 8 and ends with a warning', async () => {
    await writeSettings(box, { Stop: [{ hooks: [cmd(json({ decision: 'block', reason: 'again' }))] }] })
    const r = await run(box, Array.from({ length: 10 }, () => ({ reply: 'done' })))
    expect(r.requests).toHaveLength(9)
    expect(r.result.terminal_reason).toBe('completed')
    expect(r.messages.some((m) => m.type === 'system' && m.subtype === 'informational' && String((m as { content?: unknown }).content).includes('9 consecutive times'))).toBe(true)
  })

  it('continue:false ends the turn as stop_hook_prevented: the answer stays the result, the reason is shown', async () => {
    await writeSettings(box, { Stop: [{ hooks: [cmd(json({ continue: false, stopReason: 'halted by policy' }))] }] })
    const r = await run(box, [{ reply: 'done' }])
    expect(r.result).toMatchObject({ terminal_reason: 'stop_hook_prevented', result: 'done', is_error: false })
    expect(r.messages.some((m) => m.type === 'system' && m.subtype === 'informational' && (m as { content?: unknown }).content === 'halted by policy')).toBe(true)
  })
})

describe('failures', () => {
  it('a hook that hangs past its timeout is killed and the turn goes on', async () => {
    await writeSettings(box, { PreToolUse: [{ hooks: [cmd('sleep 30', { timeout: 0.3 })] }] })
    // The hook would sleep 30 s, past the test's own timeout: the turn going on at all is its timeout at work.
    const r = await run(box, [{ reply: [echo('hi')] }, { reply: 'ok' }])
    expect(r.requests[1]!.body.messages[2].content[0]).toMatchObject({ content: 'hi' })
  })

  it('hook_response gives exit_code 1 for a hook killed at its timeout, as Claude Code reports it', async () => {
    await writeSettings(box, { UserPromptSubmit: [{ hooks: [cmd('sleep 30', { timeout: 0.3 }), cmd('true')] }] })
    const r = await run(box, [{ reply: 'ok' }], 'go', { includeHookEvents: true })
    const responses = r.messages.filter((m: any) => m.type === 'system' && m.subtype === 'hook_response')
    expect(responses.map((m: any) => [m.command, m.outcome, m.exit_code])).toEqual(expect.arrayContaining([['sleep 30', 'cancelled', 1], ['true', 'success', 0]]))
  })

  it('a missing command and invalid JSON output give a notice naming the hook and its file', async () => {
    await writeSettings(box, { PreToolUse: [{ hooks: [cmd('/no/such/hook.sh'), cmd(json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'sometimes' } }))] }] })
    const r = await run(box, [{ reply: [echo('hi')] }, { reply: 'ok' }])
    const notices = r.messages.filter((m) => m.type === 'system' && m.subtype === 'informational').map((m) => String((m as { content?: unknown }).content))
    const file = join(box.project, '.claude', 'settings.json')
    expect(notices.some((n) => n.includes('/no/such/hook.sh') && n.includes(file))).toBe(true)
    expect(notices.some((n) => n.includes('sometimes') && n.includes(file))).toBe(true)
    expect(r.requests[1]!.body.messages[2].content[0]).toMatchObject({ content: 'hi' })
  })
})
