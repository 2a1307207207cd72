import { describe, expect, it } from 'vitest'
import { cmd, fire, group, json, preToolUse } from './helpers.js'

const hso = (hookEventName: string, fields: object) => ({ hookSpecificOutput: { hookEventName, ...fields } })

describe('JSON output (spec §3.1, §3.4, §3.5)', () => {
  it('PreToolUse: permissionDecision, reason, updatedInput and additionalContext', async () => {
    const out = json(hso('PreToolUse', { permissionDecision: 'allow', permissionDecisionReason: 'safe', updatedInput: { command: 'ls -la' }, additionalContext: 'listed' }))
    const r = await fire('PreToolUse', preToolUse(), group('PreToolUse', [cmd(out)]))
    expect(r).toMatchObject({ decision: 'allow', decisionReason: 'safe', updatedInput: { command: 'ls -la' }, blocked: false })
    expect(r.additionalContexts.map((c) => c.text)).toEqual(['listed'])
  })

  it('legacy top-level approve / block map to allow / deny', async () => {
    const approve = await fire('PreToolUse', preToolUse(), group('PreToolUse', [cmd(json({ decision: 'approve', reason: 'ok' }))]))
    expect(approve).toMatchObject({ decision: 'allow', decisionReason: 'ok', blocked: false })
    const block = await fire('PreToolUse', preToolUse(), group('PreToolUse', [cmd(json({ decision: 'block', reason: 'nope' }))]))
    expect(block).toMatchObject({ decision: 'deny', blocked: true, blockReason: 'nope' })
  })

  it('Stop: decision block keeps the turn going with the reason; additionalContext is feedback', async () => {
    const r = await fire('Stop', { stop_hook_active: false }, group('Stop', [cmd(json({ decision: 'block', reason: 'run the tests first' })), cmd(json(hso('Stop', { additionalContext: 'fyi' })))]))
    expect(r).toMatchObject({ blocked: true, blockReason: 'run the tests first' })
    expect(r.additionalContexts[0]!.text).toBe('fyi')
  })

  it('PermissionRequest: the decision object; deny beats allow', async () => {
    const allow = json(hso('PermissionRequest', { decision: { behavior: 'allow', updatedPermissions: [{ type: 'setMode', mode: 'acceptEdits', destination: 'session' }] } }))
    const deny = json(hso('PermissionRequest', { decision: { behavior: 'deny', message: 'not today', interrupt: true } }))
    const one = await fire('PermissionRequest', preToolUse(), group('PermissionRequest', [cmd(allow)]))
    expect(one.permissionRequest).toEqual({ behavior: 'allow', updatedPermissions: [{ type: 'setMode', mode: 'acceptEdits', destination: 'session' }] })
    const both = await fire('PermissionRequest', preToolUse(), group('PermissionRequest', [cmd(allow), cmd(deny)]))
    expect(both.permissionRequest).toEqual({ behavior: 'deny', message: 'not today', interrupt: true })
  })

  it('PostToolUse: block reason, updatedToolOutput, classifierContext; plain stdout is not context', async () => {
    const input = { ...preToolUse(), tool_response: { stdout: 'x' } }
    const r = await fire('PostToolUse', input, group('PostToolUse', [
      cmd(json({ decision: 'block', reason: 'lint failed', ...hso('PostToolUse', { updatedToolOutput: { stdout: 'redacted' }, classifierContext: 'note' }) })),
      cmd('echo plain text output'),
    ]))
    expect(r).toMatchObject({ blocked: true, blockReason: 'lint failed', updatedToolOutput: { stdout: 'redacted' }, classifierContext: 'note' })
    expect(r.additionalContexts).toEqual([])
  })

  it('SessionStart: plain stdout and additionalContext are context; initialUserMessage, sessionTitle, watchPaths', async () => {
    const r = await fire('SessionStart', { source: 'startup' }, group('SessionStart', [
      cmd('echo "branch: main"'),
      cmd(json(hso('SessionStart', { additionalContext: 'ctx', initialUserMessage: 'start here', sessionTitle: 'T', watchPaths: ['/p/.envrc'], reloadSkills: true }))),
    ]))
    expect(r.additionalContexts.map((c) => c.text)).toEqual(['branch: main', 'ctx'])
    expect(r).toMatchObject({ initialUserMessage: 'start here', sessionTitle: 'T', watchPaths: ['/p/.envrc'], reloadSkills: true })
  })

  it('UserPromptSubmit: plain stdout context, sessionTitle, block erases the prompt', async () => {
    const ctx = await fire('UserPromptSubmit', { prompt: 'hi' }, group('UserPromptSubmit', [cmd('echo "today is Tuesday"')]))
    expect(ctx.additionalContexts[0]).toMatchObject({ text: 'today is Tuesday', hook: 'echo "today is Tuesday"' })
    const block = await fire('UserPromptSubmit', { prompt: 'hi' }, group('UserPromptSubmit', [cmd(json({ decision: 'block', reason: 'secret in prompt', ...hso('UserPromptSubmit', { suppressOriginalPrompt: true }) }))]))
    expect(block).toMatchObject({ blocked: true, blockReason: 'secret in prompt', suppressOriginalPrompt: true })
  })

  it('universal fields: continue:false wins, systemMessage, suppressOutput, terminalSequence filtered', async () => {
    const r = await fire('PostToolUse', { ...preToolUse(), tool_response: {} }, group('PostToolUse', [
      cmd(json({ continue: false, stopReason: 'budget exhausted', systemMessage: 'heads up', suppressOutput: true, terminalSequence: '\u001b]0;title\u0007' })),
      cmd(json({ terminalSequence: '\u001b[31mred' })),
    ]))
    expect(r.stop).toMatchObject({ reason: 'budget exhausted' })
    expect(r.systemMessages.map((m) => m.text)).toEqual(['heads up'])
    expect(r).toMatchObject({ suppressOutput: true, terminalSequences: ['\u001b]0;title\u0007'] })
    expect(r.records[0]!.outcome).toBe('blocking')
  })

  it('events that discard JSON ignore it (SessionEnd), TaskCreated ignores continue:false', async () => {
    const end = await fire('SessionEnd', { reason: 'other' }, group('SessionEnd', [cmd(json({ continue: false, systemMessage: 'x', decision: 'block' }))]))
    expect(end).toMatchObject({ blocked: false, systemMessages: [] })
    expect(end.stop).toBeUndefined()
    const task = await fire('TaskCreated', { task_id: '1' }, group('TaskCreated', [cmd(json({ continue: false }))]))
    expect(task.stop).toBeUndefined()
  })

  it('Elicitation: action and content answer the request; exit 2 declines', async () => {
    const r = await fire('Elicitation', { mcp_server_name: 'db' }, group('Elicitation', [cmd(json(hso('Elicitation', { action: 'accept', content: { name: 'x' } })))]))
    expect(r.elicitation).toEqual({ action: 'accept', content: { name: 'x' } })
    const denied = await fire('Elicitation', { mcp_server_name: 'db' }, group('Elicitation', [cmd(`${json(hso('Elicitation', { action: 'accept' }))}; exit 2`)]))
    expect(denied.elicitation).toEqual({ action: 'decline', content: undefined })
  })
})

describe('lenient parsing and bad output (R11, §3.1)', () => {
  it('a UTF-8 BOM before the JSON is ignored', async () => {
    const r = await fire('PreToolUse', preToolUse(), group('PreToolUse', [cmd(`printf '\\357\\273\\277'; ${json({ decision: 'block', reason: 'bom' })}`)]))
    expect(r).toMatchObject({ blocked: true, blockReason: 'bom' })
  })

  it('banner lines before the JSON are skipped with a warning', async () => {
    const r = await fire('PreToolUse', preToolUse(), group('PreToolUse', [cmd(`echo "Welcome to fish"; echo "nvm loaded"; ${json({ decision: 'block', reason: 'banner' })}`)]))
    expect(r).toMatchObject({ blocked: true, blockReason: 'banner' })
    expect(r.warnings).toContainEqual(expect.objectContaining({ code: 'HOOKS_WARN_BANNER', message: expect.stringContaining('2 line(s)') }))
  })

  it('garbage on stdout is plain text: no decision, no error, and a warning when it opens with {', async () => {
    const garbage = `printf '{not json at all\\n[1,2]\\n'`
    const r = await fire('PreToolUse', preToolUse(), group('PreToolUse', [cmd(garbage)]))
    expect(r).toMatchObject({ blocked: false, errors: [] })
    expect(r.records[0]!.outcome).toBe('success')
    expect(r.warnings).toEqual([expect.objectContaining({ code: 'HOOKS_WARN_NOT_JSON', hook: garbage, file: '/project/.claude/settings.json' })])
    expect(r.warnings[0]!.message).toMatch(/^printf .* \(\/project\/\.claude\/settings\.json\): stdout starts with "\{" but is not valid JSON \(.+\); it is taken as plain text$/)
    // Plain text that does not look like JSON warns of nothing, and still counts as context where the event takes it.
    const text = await fire('UserPromptSubmit', { prompt: 'hi' }, group('UserPromptSubmit', [cmd(`printf '{"context": oops'`), cmd('echo today is Monday')]))
    expect(text.additionalContexts.map((c) => c.text)).toEqual(['{"context": oops', 'today is Monday'])
    expect(text.warnings.map((w) => w.code)).toEqual(['HOOKS_WARN_NOT_JSON'])
  })

  it('JSON of the wrong shape is a non-blocking error naming the hook and its source', async () => {
    const r = await fire('PreToolUse', preToolUse(), group('PreToolUse', [cmd(json(hso('PreToolUse', { permissionDecision: 'maybe' })))]))
    expect(r.blocked).toBe(false)
    expect(r.records[0]).toMatchObject({ outcome: 'error', errorCode: 'HOOKS_ERR_OUTPUT' })
    expect(r.errors[0]!.message).toMatch(/JSON validation failed: hookSpecificOutput\.permissionDecision: .*source: \/project\/\.claude\/settings\.json/)
    const top = await fire('Stop', {}, group('Stop', [cmd(json({ continue: 'no' }))]))
    expect(top.records[0]!.outcome).toBe('error')
  })

  it('a missing hookEventName is inferred with a warning; a wrong one is an error', async () => {
    const inferred = await fire('PostToolUse', { ...preToolUse(), tool_response: {} }, group('PostToolUse', [cmd(json({ hookSpecificOutput: { additionalContext: 'kept' } }))]))
    expect(inferred.additionalContexts[0]!.text).toBe('kept')
    expect(inferred.warnings).toContainEqual(expect.objectContaining({ code: 'HOOKS_WARN_EVENT_NAME' }))
    const wrong = await fire('PostToolUse', { ...preToolUse(), tool_response: {} }, group('PostToolUse', [cmd(json(hso('PreToolUse', { additionalContext: 'x' })))]))
    expect(wrong.records[0]!.outcome).toBe('error')
    expect(wrong.additionalContexts).toEqual([])
  })

  it('wrong-shaped JSON with exit 2 still blocks with stderr', async () => {
    const r = await fire('PreToolUse', preToolUse(), group('PreToolUse', [cmd(`${json({ decision: 'nope' })}; echo denied >&2; exit 2`)]))
    expect(r).toMatchObject({ blocked: true, blockReason: expect.stringMatching(/\]: denied\n$/), decision: 'deny' })
  })

  it('unknown top-level keys are tolerated with a warning (top-level additionalContext is ignored)', async () => {
    const r = await fire('PostToolUse', { ...preToolUse(), tool_response: {} }, group('PostToolUse', [cmd(json({ additionalContext: 'lost', ok: true }))]))
    expect(r.additionalContexts).toEqual([])
    expect(r.warnings.filter((w) => w.code === 'HOOKS_WARN_OUTPUT_FIELD')).toHaveLength(2)
  })
})
