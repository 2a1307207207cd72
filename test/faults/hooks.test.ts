import { appendFileSync, existsSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import { hookProject, lastUserText, toolResults } from './hook-project.js'
import { expectCleanEnd, runFaulty } from './run-faulty.js'
import { runStreaming } from './stream-session.js'

// Whole runs of the built CLI with real settings hooks (sh and node scripts). Faults of one kind
// share a run: each misbehaving hook is bound to its own Bash call by an `if` rule, and one exit-2
// script serves every event of a turn. The events that commands raise (/model, /compact, a custom
// command) share one session of the Agent SDK's transport, fed one prompt at a time. The runs go at once.

const bash = (command: string) => ({ tool_use: { name: 'Bash', input: { command } } })
const onCall = (word: string, command: string, more: object = {}) => ({ type: 'command', command, if: `Bash(echo ${word}*)`, ...more })
// Node writes the big outputs so their size is exact; the JSON is a real deny.
const printer = (body: string) => `#!/usr/bin/env node\nprocess.stdout.write(${body})\n`
const deny = (reasonChars: number) => `JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no: ' + 'x'.repeat(${reasonChars}) } })`

describe.concurrent('a hook fault never ends a run silently or fails open', () => {
  it('hang, crash, garbage, wrong shape, missing binary, background child, no stdin read, 10 MB, huge deny: each named, the run goes on to its result', async () => {
    const p = await hookProject({
      'hang.sh': 'sleep 600',
      'crash.sh': 'kill -SEGV $$',
      'garbage.sh': `echo '{"hookSpecificOutput": oops'`,
      'shape.sh': `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"maybe"}}'`,
      'background.sh': 'sleep 600 &\necho started',
      'no-stdin.sh': 'exit 0',
      'deny-big.js': printer(deny(2_000_000)),
      'deny-huge.js': printer(deny(20_000_000)),
      'ten-mb.js': printer(`'z'.repeat(10_000_000)`),
    }, (path) => ({
      SessionStart: [{ hooks: [{ type: 'command', command: path('ten-mb.js') }] }],
      PreToolUse: [{
        matcher: 'Bash',
        hooks: [
          onCall('hang', path('hang.sh'), { timeout: 0.5 }),
          onCall('crash', path('crash.sh')),
          onCall('garbage', path('garbage.sh')),
          onCall('shape', path('shape.sh')),
          onCall('missing', path('no-such-hook.sh')),
          onCall('background', path('background.sh')),
          onCall('deny-big', path('deny-big.js')),
          onCall('deny-huge', path('deny-huge.js')),
        ],
      }],
      // Its input carries the prompt, past a pipe's buffer: the write to a hook that never reads must not hang or crash.
      UserPromptSubmit: [{ hooks: [{ type: 'command', command: path('no-stdin.sh') }] }],
    }))
    const calls = ['hang', 'crash', 'garbage', 'shape', 'missing', 'background', 'deny-big', 'deny-huge']
    const prompt = `go ${'.'.repeat(100_000)}`
    const run = await runFaulty(p.cwd, undefined, { prompt, script: [{ reply: calls.map((c) => bash(`echo ${c}`)) }, { reply: 'done', expect: { toolResults: calls.length } }] })

    expect(run.result, run.err).toMatchObject({ type: 'result', subtype: 'success', result: 'done' })
    expect(run.code).toBe(0)
    await expectCleanEnd(p.cwd, run)

    // Every failure names its hook.
    expect(run.err).toContain(`${p.path('hang.sh')}: timed out after 0.5 s; its process group was killed`)
    expect(run.err).toContain(`${p.path('crash.sh')}: Failed with non-blocking status code 139`)
    expect(run.err).toContain(`${p.path('garbage.sh')} (${p.settings}): stdout starts with "{" but is not valid JSON`)
    expect(run.err).toContain(`${p.path('shape.sh')}: JSON validation failed: hookSpecificOutput.permissionDecision`)
    expect(run.err).toContain(`${p.path('no-such-hook.sh')}: could not be started`)
    expect(run.err).toContain(`${p.path('background.sh')}: a process it left running still holds its stdout or stderr`)
    expect(run.err).toContain(`${p.path('deny-huge.js')}: printed 20.0 MB on stdout, past the 16 MiB a decision is read from`)

    // A failing hook fails open; a deny, however large, denies; one too large to read fails closed.
    const results = toolResults(run.requests[1]!)
    for (const ran of ['hang', 'crash', 'garbage', 'shape', 'missing', 'background']) expect(results[`echo ${ran}`], ran).toBe(ran)
    expect(results['echo deny-big']).toMatch(/^PreToolUse:Bash hook error: PreToolUse:Bash hook output was 2000004 characters; it is saved in \S+\. Its start:\nno: xxx/)
    expect(results['echo deny-huge']).toContain('printed 20.0 MB on stdout, past the 16 MiB a decision is read from, so its decision cannot be read (the hook fails closed)')

    // 10 MB of SessionStart context reaches the model as a file path and its start, the file whole.
    const first = JSON.stringify(run.requests[0]!.body)
    expect(first.length).toBeLessThan(200_000)
    const saved = /SessionStart:startup hook output was 10000000 characters; it is saved in (\S+?)\. Its start/.exec(first)?.[1]
    expect(saved && statSync(saved).size).toBe(10_000_000)
  }, 60_000)

  it('exit 2 on every event of a turn: blocks where the event can block, reaches the model or the user as the event says, never stops the run', async () => {
    const p = await hookProject({ 'exit2.sh': EXIT2 }, (path) => Object.fromEntries(
      ['SessionStart', 'InstructionsLoaded', 'MessageDisplay', 'PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'SubagentStart', 'SubagentStop', 'Stop', 'SessionEnd']
        .map((event) => [event, [{ hooks: [{ type: 'command', command: path('exit2.sh') }] }]]),
    ), { 'CLAUDE.md': 'Be brief.\n' })
    const run = await runFaulty(p.cwd, undefined, {
      script: [
        { reply: [bash('echo deny-me'), bash('echo ran'), bash('exit 3'), { tool_use: { name: 'Agent', input: { description: 'sub', prompt: 'help', run_in_background: false } } }] },
        { reply: 'sub done' },
        { reply: 'sub really done', expect: { lastUserText: 'exit 2 from SubagentStop' } },
        { reply: 'first', expect: { toolResults: 4 } },
        { reply: 'done', expect: { lastUserText: 'exit 2 from Stop' } },
      ],
    })
    expect(run.result, run.err).toMatchObject({ type: 'result', subtype: 'success', result: 'done' })
    expect(run.code).toBe(0)
    await expectCleanEnd(p.cwd, run)

    const fired = new Set(readFileSync(p.path('events.log'), 'utf8').split('\n').filter(Boolean))
    expect([...fired].sort()).toEqual(['InstructionsLoaded', 'MessageDisplay', 'PostToolUse', 'PostToolUseFailure', 'PreToolUse', 'SessionEnd', 'SessionStart', 'Stop', 'SubagentStart', 'SubagentStop'])
    // To the model: the deny reason, and beside the results of the calls that ran.
    const results = toolResults(run.requests[3]!)
    expect(results['echo deny-me']).toContain('exit 2 from PreToolUse')
    expect(results['echo ran']).toBe('ran')
    // Beside the results: what a PostToolUse hook says of a call that already ran.
    expect(lastUserText(run.requests[3]!)).toContain('exit 2 from PostToolUse')
    expect(lastUserText(run.requests[3]!)).toContain('exit 2 from PostToolUseFailure')
    expect(lastUserText(run.requests[2]!)).toContain('exit 2 from SubagentStop')
    expect(lastUserText(run.requests[4]!)).toContain('exit 2 from Stop')
    // To the user: the events that cannot block say so, naming the hook.
    for (const event of ['SessionStart', 'SubagentStart', 'SessionEnd']) expect(run.err, event).toMatch(new RegExp(`${event}\\S* hook error \\(Project Settings: ${p.settings}\\): ${p.path('exit2.sh')}: .*exit 2 from ${event}`))
    // Shown nowhere: the events that ignore exit 2.
    for (const event of ['InstructionsLoaded', 'MessageDisplay']) expect(`${run.err}${JSON.stringify(run.messages)}`, event).not.toContain(`exit 2 from ${event}`)
  }, 60_000)

  it('exit 2 on UserPromptSubmit drops the prompt: no request, a hook_stopped result naming the hook', async () => {
    const p = await hookProject({ 'exit2.sh': EXIT2 }, (path) => ({ UserPromptSubmit: [{ hooks: [{ type: 'command', command: path('exit2.sh') }] }] }))
    const run = await runFaulty(p.cwd, undefined, { script: [{ reply: 'never' }] })
    expect(run.requests).toHaveLength(0)
    expect(run.result, run.err).toMatchObject({ type: 'result', terminal_reason: 'hook_stopped' })
    expect(JSON.stringify(run.messages)).toContain('exit 2 from UserPromptSubmit')
    // Nothing was said in the session, so it wrote no transcript.
    await expectCleanEnd(p.cwd, run, { transcript: false })
  }, 60_000)

  it('exit 2 on PermissionRequest is not honoured (the call still asks, and -p denies it) and its stderr is shown nowhere; on PostToolBatch it stops the loop', async () => {
    const p = await hookProject({ 'exit2.sh': EXIT2 }, (path) => ({
      PermissionRequest: [{ hooks: [{ type: 'command', command: path('exit2.sh') }] }],
      PostToolBatch: [{ hooks: [{ type: 'command', command: path('exit2.sh') }] }],
    }))
    const run = await runFaulty(p.cwd, undefined, { args: ['--permission-mode', 'default'], script: [{ reply: [bash('touch made')] }, { reply: 'never' }] })
    expect(run.requests).toHaveLength(1)
    expect(run.result, run.err).toMatchObject({ type: 'result', terminal_reason: 'hook_stopped' })
    expect(readFileSync(p.path('events.log'), 'utf8')).toBe('PermissionRequest\nPostToolBatch\n')
    expect(JSON.stringify(run.messages)).toContain('exit 2 from PostToolBatch')
    expect(`${run.err}${JSON.stringify(run.messages)}`).not.toContain('exit 2 from PermissionRequest')
    await expectCleanEnd(p.cwd, run)
    expect(existsSync(join(p.cwd, 'made'))).toBe(false)
  }, 60_000)

  it('exit 2 in a session of commands: PreModelSwitch, UserPromptExpansion and PreCompact refuse with the stderr shown to the user; PostModelSwitch and PostCompact notice it; Notification ignores it', async () => {
    const events = ['PreModelSwitch', 'PostModelSwitch', 'UserPromptExpansion', 'Notification', 'PreCompact', 'PostCompact']
    const p = await hookProject({ 'exit2.sh': EXIT2 }, (path) => Object.fromEntries(events.map((event) => [event, [{ hooks: [{ type: 'command', command: path('exit2.sh') }] }]])), {
      '.claude/commands/review.md': 'Review $ARGUMENTS.\n',
    })
    // The Agent SDK's transport: prompts one after another; the permission ask goes to the test (a Notification), which denies it.
    const run = await runStreaming(p.cwd, {
      args: ['--permission-mode', 'default', '--permission-prompt-tool', 'stdio'],
      inputs: ['/model opus', '/model haiku', '/review src', 'go', '/compact block-me', '/compact'],
      script: [{ reply: [bash('touch asked')] }, { reply: 'asked', expect: { toolResults: 1, model: 'claude-haiku-5-5' } }, { reply: 'SUMMARY' }],
    })
    const said = (event: string) => `[${p.path('exit2.sh')}]: exit 2 from ${event}\n`
    expect(run.results.map((r) => r.result), run.err).toEqual([
      `Model switch to opus refused: PreModelSwitch:claude-opus-5-5 hook blocked the switch to claude-opus-5-5: ${said('PreModelSwitch')}`,
      'Model set to claude-haiku-5-5',
      `UserPromptExpansion operation blocked by hook:\n${said('UserPromptExpansion')}\n\nOriginal prompt: /review src`,
      'asked',
      `Not compacted: PreCompact:manual hook blocked compaction: ${said('PreCompact')}`,
      expect.stringMatching(/^Compacted the conversation/),
    ])
    expect(run.results.map((r) => r.is_error)).toEqual([true, false, false, false, false, false])
    expect(run.code).toBe(0)
    await expectCleanEnd(p.cwd, run)
    expect(readFileSync(p.path('events.log'), 'utf8').split('\n').filter(Boolean).sort()).toEqual([...events, 'PreModelSwitch', 'PreCompact'].sort())

    // What was refused never reached the model: no expansion, one summary; the switch that went through holds.
    expect(run.requests.map((r) => r.body.model)).toEqual(['claude-haiku-5-5', 'claude-haiku-5-5', 'claude-haiku-5-5'])
    expect(lastUserText(run.requests[0]!)).toMatch(/^go/)
    expect(JSON.stringify(run.requests[0]!.body)).not.toContain('Review src')
    expect(run.messages.filter((m) => m.type === 'system' && m.subtype === 'compact_boundary')).toHaveLength(1)
    // The ask went on to the approver (the test), whose deny is the call's answer.
    expect(run.messages.filter((m) => m.type === 'control_request' && m.request.subtype === 'can_use_tool')).toHaveLength(1)
    expect(toolResults(run.requests[1]!)['touch asked']).toBe('denied by the test')
    expect(existsSync(join(p.cwd, 'asked'))).toBe(false)
    // None of these events sends the stderr to the model, but for what /compact printed, which stays in
    // the history as the command's output, as Claude Code keeps it.
    const sent = JSON.stringify(run.requests.map((r) => r.body))
    expect(sent.match(/exit 2 from \w+/g)).toEqual(['exit 2 from PreCompact'])
    expect(sent).toContain(`<local-command-stdout>Not compacted: PreCompact:manual hook blocked compaction: [${p.path('exit2.sh')}]: exit 2 from PreCompact\\n</local-command-stdout>`)
    // To the user, naming the hook: the events that cannot block. Notification's exit 2 is shown nowhere.
    const notices = run.messages.filter((m) => m.type === 'system' && m.subtype === 'informational').map((m) => String(m.content))
    for (const event of ['PostModelSwitch', 'PostCompact']) {
      const notice = new RegExp(`^${event}:\\S+ hook error \\(Project Settings: ${p.settings}\\): ${p.path('exit2.sh')}: Failed with non-blocking status code 2: exit 2 from ${event}$`)
      expect(notices.filter((n) => notice.test(n)), event).toHaveLength(1)
      expect(run.err).toMatch(new RegExp(notice.source.slice(1, -1)))
    }
    expect(notices.join('\n')).not.toContain('exit 2 from Notification')
    expect(run.err).not.toContain('exit 2 from Notification')
  }, 60_000)

  it('exit 2 on PermissionDenied is ignored: the auto mode\'s denial stands, the model reads only the denial, the user sees nothing', async () => {
    const p = await hookProject({ 'exit2.sh': EXIT2 }, (path) => ({ PermissionDenied: [{ hooks: [{ type: 'command', command: path('exit2.sh') }] }] }))
    const verdict = { reply: JSON.stringify({ decision: 'deny', reason: 'nothing asked for a touch' }) }
    // tee, not touch: auto mode runs what acceptEdits allows without asking its classifier.
    const run = await runFaulty(p.cwd, undefined, { args: ['--permission-mode', 'auto'], script: [{ reply: [bash('tee made </dev/null')] }, verdict, { reply: 'done', expect: { toolResults: 1 } }] })
    expect(run.result, run.err).toMatchObject({ type: 'result', subtype: 'success', result: 'done', permission_denials: [expect.objectContaining({ tool_name: 'Bash' })] })
    expect(run.code).toBe(0)
    await expectCleanEnd(p.cwd, run)
    expect(readFileSync(p.path('events.log'), 'utf8')).toBe('PermissionDenied\n')
    expect(toolResults(run.requests[2]!)['tee made </dev/null']).toBe('The auto mode classifier refused this Bash call: nothing asked for a touch')
    expect(existsSync(join(p.cwd, 'made'))).toBe(false)
    expect(JSON.stringify(run.messages)).not.toContain('exit 2 from')
    expect(run.err).not.toContain('exit 2 from')
  }, 60_000)

  it('auto mode through the Agent SDK\'s transport: a call the classifier refuses raises neither PermissionRequest nor the notification; one it leaves undecided raises both before can_use_tool', async () => {
    const p = await hookProject({ 'record.sh': RECORD }, (path) => Object.fromEntries(['PermissionRequest', 'Notification', 'PermissionDenied'].map((event) => [event, [{ hooks: [{ type: 'command', command: path('record.sh') }] }]])))
    const log = p.path('events.log')
    const logged = () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : [])
    const run = await runStreaming(p.cwd, {
      args: ['--permission-mode', 'auto', '--permission-prompt-tool', 'stdio', '--include-hook-events'],
      inputs: ['go'],
      script: [
        { reply: [bash('tee refused </dev/null')] }, { reply: JSON.stringify({ decision: 'deny', reason: 'nothing asked for it' }) },
        { reply: [bash('tee asked </dev/null')] }, { reply: 'no verdict from me' },
        { reply: 'done', expect: { toolResults: 1 } },
      ],
      // The notification runs beside the ask: the approver answers once it was logged, so the log
      // shows whether it came first (one raised only after the answer would never be logged).
      canUseTool: async (request) => {
        while (!logged().some((l) => l.startsWith('Notification'))) await sleep(10)
        appendFileSync(log, `approver ${request.input.command}\n`)
        return { behavior: 'allow', updatedInput: request.input }
      },
    })
    expect(run.result, run.err).toMatchObject({ type: 'result', subtype: 'success', result: 'done', permission_denials: [expect.objectContaining({ tool_name: 'Bash' })] })
    expect(run.code).toBe(0)
    await expectCleanEnd(p.cwd, run)
    expect(existsSync(join(p.cwd, 'refused'))).toBe(false)
    expect(existsSync(join(p.cwd, 'asked'))).toBe(true)
    expect(logged()).toEqual(['PermissionDenied tee refused </dev/null', 'PermissionRequest tee asked </dev/null', 'Notification permission_prompt', 'approver tee asked </dev/null'])
    // In the stream too, PermissionRequest started and answered before the approver was asked.
    const order = run.messages.flatMap((m) => m.type === 'system' && (m.subtype === 'hook_started' || m.subtype === 'hook_response') ? [`${m.subtype} ${m.hook_event}`] : m.type === 'control_request' ? [m.request.subtype] : [])
    expect(order).toEqual(['hook_started PermissionDenied', 'hook_response PermissionDenied', 'hook_started PermissionRequest', 'hook_response PermissionRequest', 'can_use_tool'])
  }, 60_000)
})

// Logs the event with the Bash command it is about (or the notification's type).
const RECORD = `input=$(cat)
event=$(printf '%s' "$input" | sed -n 's/.*"hook_event_name":"\\([A-Za-z]*\\)".*/\\1/p')
about=$(printf '%s' "$input" | sed -n -e 's/.*"command":"\\([^"]*\\)".*/\\1/p' -e 's/.*"notification_type":"\\([a-z_]*\\)".*/\\1/p' | head -n 1)
echo "$event $about" >> "$(dirname "$0")/events.log"`

// Logs the event, then exits 2 with a line naming it — except on a Stop already continued (or the
// turn would go on to the cap), and where only one of the calls, compactions or switches must be
// blocked so that the rest go on: PreToolUse of `deny-me`, PreCompact of `/compact block-me`,
// PreModelSwitch to an opus model.
const EXIT2 = `input=$(cat)
event=$(printf '%s' "$input" | sed -n 's/.*"hook_event_name":"\\([A-Za-z]*\\)".*/\\1/p')
echo "$event" >> "$(dirname "$0")/events.log"
case "$input" in *'"stop_hook_active":true'*) exit 0 ;; esac
case "$event:$input" in
  PreToolUse:*deny-me*|PreCompact:*block-me*|PreModelSwitch:*'"to_model":"claude-opus'*) ;;
  PreToolUse:*|PreCompact:*|PreModelSwitch:*) exit 0 ;;
esac
echo "exit 2 from $event" >&2
exit 2`
