import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { HookEventName } from '../../hooks-runner/events.js'
import { cmd, fire, group, json, preToolUse, script, tempDir } from './helpers.js'

describe('exit codes (spec §3.2, §3.3)', () => {
  it('exit 0 with no output is a plain success', async () => {
    const r = await fire('PreToolUse', preToolUse(), group('PreToolUse', [cmd('exit 0')]))
    expect(r.records).toHaveLength(1)
    expect(r.records[0]).toMatchObject({ outcome: 'success', exitCode: 0 })
    expect(r).toMatchObject({ blocked: false, errors: [], additionalContexts: [] })
    expect(r.decision).toBeUndefined()
  })

  it('exit 2 on PreToolUse denies, with the command and its stderr as the reason', async () => {
    const r = await fire('PreToolUse', preToolUse('rm -rf /'), group('PreToolUse', [cmd('echo "no rm" >&2; exit 2')], { matcher: 'Bash' }))
    const reason = '[echo "no rm" >&2; exit 2]: no rm\n'
    expect(r).toMatchObject({ blocked: true, decision: 'deny', decisionReason: reason, blockReason: reason, hookName: 'PreToolUse:Bash' })
    expect(r.records[0]!.outcome).toBe('blocking')
  })

  it('exit 1 does not block: a non-blocking error naming the first stderr line', async () => {
    const r = await fire('PreToolUse', preToolUse(), group('PreToolUse', [cmd('echo "oops\nmore" >&2; exit 1')]))
    expect(r.blocked).toBe(false)
    expect(r.records[0]).toMatchObject({ outcome: 'error', errorCode: 'HOOKS_ERR_EXIT' })
    expect(r.errors[0]!.message).toBe('Failed with non-blocking status code 1: oops')
  })

  it.each<[HookEventName, Record<string, unknown>]>([
    ['UserPromptSubmit', { prompt: 'hi' }],
    ['Stop', { stop_hook_active: false }],
    ['SubagentStop', { agent_type: 'Explore' }],
    ['PostToolUse', { ...preToolUse(), tool_response: {} }],
    ['PostToolBatch', { tool_calls: [] }],
    ['TaskCreated', { task_id: 't' }],
    ['PreCompact', { trigger: 'manual' }],
    ['ConfigChange', { source: 'project_settings' }],
  ])('exit 2 blocks %s', async (event, input) => {
    const r = await fire(event, input, group(event, [cmd('echo blocked-here >&2; exit 2')]))
    expect(r).toMatchObject({ blocked: true, blockReason: '[echo blocked-here >&2; exit 2]: blocked-here\n' })
  })

  it('exit 2 with nothing on stderr says so beside the command, as Claude Code does', async () => {
    const r = await fire('UserPromptSubmit', { prompt: 'hi' }, group('UserPromptSubmit', [cmd('exit 2')]))
    expect(r.blockReason).toBe('[exit 2]: No stderr output')
  })

  it.each<[HookEventName, Record<string, unknown>]>([
    ['SessionStart', { source: 'startup' }],
    ['SessionEnd', { reason: 'other' }],
    ['PostCompact', { trigger: 'auto' }],
    ['PostModelSwitch', { from_model: 'a', to_model: 'b' }],
  ])('exit 2 cannot block %s: it is a non-blocking error', async (event, input) => {
    const r = await fire(event, input, group(event, [cmd('echo nope >&2; exit 2')]))
    expect(r.blocked).toBe(false)
    expect(r.records[0]!.outcome).toBe('error')
    expect(r.errors[0]!.message).toBe('Failed with non-blocking status code 2: nope')
  })

  it.each<[HookEventName, Record<string, unknown>]>([
    ['Notification', { notification_type: 'idle_prompt', message: 'x' }],
    ['PermissionRequest', preToolUse()],
    ['PermissionDenied', { ...preToolUse(), reason: 'Blocked by classifier' }],
    ['InstructionsLoaded', { load_reason: 'session_start' }],
    ['StopFailure', { error: 'rate_limit' }],
  ])('exit 2 on %s is ignored: no block and no error; the record keeps stderr', async (event, input) => {
    const r = await fire(event, input, group(event, [cmd('echo nope >&2; exit 2')]))
    expect(r).toMatchObject({ blocked: false, errors: [] })
    expect(r.records[0]).toMatchObject({ outcome: 'success', exitCode: 2, stderr: 'nope\n', message: `exit 2 is ignored on ${event}` })
    // Any other failing status is still an error to report.
    const crashed = await fire(event, input, group(event, [cmd('echo nope >&2; exit 1')]))
    expect(crashed.errors[0]!.message).toBe('Failed with non-blocking status code 1: nope')
  })

  it('exit 2 blocks even when JSON says allow; the JSON reason wins over stderr', async () => {
    const out = json({ decision: 'approve', reason: 'json reason' })
    const r = await fire('PreToolUse', preToolUse(), group('PreToolUse', [cmd(`${out}; echo stderr-reason >&2; exit 2`)]))
    expect(r).toMatchObject({ blocked: true, decision: 'deny', blockReason: 'json reason' })
  })

  it.each<[HookEventName, Record<string, unknown>]>([
    ['Stop', { stop_hook_active: false }],
    ['SubagentStop', { agent_type: 'Explore' }],
  ])('%s decision "block" with an empty reason still blocks, with "Blocked by hook" as the reason and a warning (as in Claude Code)', async (event, input) => {
    const r = await fire(event, input, group(event, [cmd(json({ decision: 'block', reason: ' ' }))]))
    expect(r).toMatchObject({ blocked: true, blockReason: 'Blocked by hook' })
    expect(r.warnings).toContainEqual(expect.objectContaining({ code: 'HOOKS_WARN_EMPTY_BLOCK', message: expect.stringContaining(`${event} decision "block" without a reason; the turn goes on`) }))
  })

  it('any other exit with schema-valid JSON lets the JSON decide, with no error', async () => {
    const out = json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask' } })
    const r = await fire('PreToolUse', preToolUse(), group('PreToolUse', [cmd(`${out}; exit 3`)]))
    expect(r).toMatchObject({ decision: 'ask', errors: [] })
    expect(r.records[0]!.outcome).toBe('success')
  })

  it('WorktreeCreate takes the last non-empty stdout line as the path and fails on any non-zero exit', async () => {
    const ok = await fire('WorktreeCreate', { name: 'w' }, group('WorktreeCreate', [cmd('echo banner; printf "\\033[32m/tmp/wt\\033[0m\\n\\n"')]))
    expect(ok).toMatchObject({ worktreePath: '/tmp/wt', blocked: false })
    const bad = await fire('WorktreeCreate', { name: 'w' }, group('WorktreeCreate', [cmd('echo /tmp/wt; exit 1')]))
    expect(bad.blocked).toBe(true)
  })
})

describe('launch errors (R2)', () => {
  it('a command that does not exist is a launch error, never a block', async () => {
    const r = await fire('PreToolUse', preToolUse(), group('PreToolUse', [cmd('definitely-not-a-command-xyz --flag')]))
    expect(r.blocked).toBe(false)
    expect(r.records[0]).toMatchObject({ outcome: 'launch_error', errorCode: 'HOOKS_ERR_LAUNCH' })
  })

  it('a missing script path is caught before spawning', async () => {
    const r = await fire('Stop', {}, group('Stop', [cmd('/nonexistent/dir/hook.sh')]))
    expect(r.blocked).toBe(false)
    expect(r.records[0]).toMatchObject({ outcome: 'launch_error', pid: undefined })
    expect(r.records[0]!.message).toContain('/nonexistent/dir/hook.sh: no such file')
  })

  it('an interpreter given a missing script is a launch error, not its exit status', async () => {
    const r = await fire('Stop', {}, group('Stop', [cmd('node "$CLAUDE_PROJECT_DIR/missing-hook.js"')]))
    expect(r.records[0]!.outcome).toBe('launch_error')
    expect(r.blocked).toBe(false)
  })

  it('exec form with a missing executable, and a script without the exec bit', async () => {
    const dir = await tempDir()
    const path = join(dir, 'plain.sh')
    await (await import('node:fs/promises')).writeFile(path, 'exit 2\n')
    const r = await fire('Stop', {}, group('Stop', [cmd('no-such-binary-abc', { args: ['x'] }), cmd(path)]))
    expect(r.records.map((x) => x.outcome)).toEqual(['launch_error', 'launch_error'])
    expect(r.records[1]!.message).toContain('not executable')
    expect(r.blocked).toBe(false)
  })
})

describe('command forms (spec §1.7)', () => {
  it('exec form spawns without a shell, substituting placeholders and plugin options', async () => {
    const { resolveHooks } = await import('../../hooks-runner/resolve-hooks.js')
    const { runHooks } = await import('../../hooks-runner/run-hooks.js')
    const source = { kind: 'extra' as const, file: 'plugin:p', label: 'Plugin Hooks', dedupClass: 'extra:plugin:p', pluginOptions: { mode: 'strict' } }
    const hooks = group('Stop', [cmd('node', { args: ['-e', 'console.error(process.argv.slice(1).join("|")); process.exit(2)', '${CLAUDE_PROJECT_DIR}', '${user_config.mode}', '$HOME *'] })])
    const r = await runHooks('Stop', {}, { config: resolveHooks([{ source, hooks }]).config, projectDir: '/proj' })
    expect(r).toMatchObject({ blocked: true, blockReason: expect.stringMatching(/\]: \/proj\|strict\|\$HOME \*\n$/) })
  })

  it('CLAUDE_CODE_SHELL_PREFIX wraps shell-form commands, receiving the command as $1', async () => {
    const dir = await tempDir()
    const log = join(dir, 'wrapped.txt')
    const wrap = await script(dir, 'wrap.sh', `printf '%s' "$1" > ${log}\nexec sh -c "$1"`)
    const r = await fire('Stop', {}, group('Stop', [cmd(`echo 'it''s' >&2; exit 2`)]), { env: { ...process.env, CLAUDE_CODE_SHELL_PREFIX: wrap } })
    expect(r.blockReason).toBe(`[echo 'it''s' >&2; exit 2]: its\n`)
    expect(await readFile(log, 'utf8')).toBe(`echo 'it''s' >&2; exit 2`)
  })

  it('a shell that cannot be spawned (no PowerShell here) is a launch error', async () => {
    const r = await fire('Stop', {}, group('Stop', [cmd('Write-Output hi', { shell: 'powershell' })]), { env: { PATH: '/nonexistent' } })
    expect(r.records[0]).toMatchObject({ outcome: 'launch_error' })
    expect(r.blocked).toBe(false)
  })
})

describe('stdin and environment (spec §2.1, §4.3)', () => {
  it('a node hook receives the input JSON intact on stdin, and the documented variables', async () => {
    const dir = await tempDir()
    const out = join(dir, 'seen.json')
    const hook = await script(dir, 'seen.mjs', `#!/usr/bin/env node
let s = ''
process.stdin.on('data', (d) => (s += d)).on('end', async () => {
  const { writeFileSync } = await import('node:fs')
  const e = process.env
  writeFileSync(${JSON.stringify(out)}, JSON.stringify({ stdin: s, env: {
    CLAUDE_PROJECT_DIR: e.CLAUDE_PROJECT_DIR, MODLOOP_PROJECT_DIR: e.MODLOOP_PROJECT_DIR, CLAUDE_CODE_SESSION_ID: e.CLAUDE_CODE_SESSION_ID,
    CLAUDECODE: e.CLAUDECODE, CLAUDE_ENV_FILE: e.CLAUDE_ENV_FILE, OTEL_EXPORTER_OTLP_ENDPOINT: e.OTEL_EXPORTER_OTLP_ENDPOINT, CLAUDE_EFFORT: e.CLAUDE_EFFORT,
  }, cwd: process.cwd() }))
})
`)
    const input = { ...preToolUse('echo "quotes" \\ and ünïcödé ✓'), effort: { level: 'high' }, nested: { a: [1, null, true] } }
    const r = await fire('PreToolUse', input, group('PreToolUse', [cmd(hook)]), {
      projectDir: dir, cwd: dir, env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: 'http://x' }, envFileDir: join(dir, 'env'),
    })
    expect(r.records[0]!.outcome).toBe('success')
    const seen = JSON.parse(await readFile(out, 'utf8'))
    expect(seen.stdin.endsWith('\n')).toBe(true)
    expect(JSON.parse(seen.stdin)).toEqual({ session_id: 's1', cwd: process.cwd(), ...input, hook_event_name: 'PreToolUse' })
    expect(seen.env).toEqual({ CLAUDE_PROJECT_DIR: dir, MODLOOP_PROJECT_DIR: dir, CLAUDE_CODE_SESSION_ID: 's1', CLAUDECODE: '1', CLAUDE_EFFORT: 'high' })
    expect(seen.cwd).toBe(dir)
  })

  it('CLAUDE_ENV_FILE is given on SessionStart only, one file per hook', async () => {
    const dir = await tempDir()
    const envDir = join(dir, 'session-env')
    const hooks = group('SessionStart', [cmd('echo "export FOO=bar" >> "$CLAUDE_ENV_FILE"')])
    const r = await fire('SessionStart', { source: 'startup' }, hooks, { envFileDir: envDir })
    expect(r.envFiles).toEqual([join(envDir, 'hook-0.sh')])
    expect(await readFile(r.envFiles[0]!, 'utf8')).toBe('export FOO=bar\n')
    const pre = await fire('PreToolUse', preToolUse(), group('PreToolUse', [cmd('test -z "$CLAUDE_ENV_FILE"')]), { envFileDir: envDir })
    expect(pre.envFiles).toEqual([])
    expect(pre.records[0]!.outcome).toBe('success')
  })

  it('a hook that never reads stdin is not an error (EPIPE ignored)', async () => {
    const big = { ...preToolUse(), blob: 'x'.repeat(1024 * 1024) }
    const r = await fire('PreToolUse', big, group('PreToolUse', [cmd('exec 0<&-; exit 0')]))
    expect(r.records[0]!.outcome).toBe('success')
  })

  it('plugin sources get their root, data dir and options as variables and placeholders', async () => {
    const { resolveHooks } = await import('../../hooks-runner/resolve-hooks.js')
    const { runHooks } = await import('../../hooks-runner/run-hooks.js')
    const source = { kind: 'extra' as const, file: 'plugin:fmt', label: 'Plugin Hooks', dedupClass: 'extra:plugin:fmt', pluginRoot: '/opt/fmt', pluginData: '/data/fmt', pluginOptions: { level: '3' } }
    const hooks = group('Stop', [cmd('test "${CLAUDE_PLUGIN_ROOT}" = /opt/fmt && test "$CLAUDE_PLUGIN_DATA" = /data/fmt && test "$CLAUDE_PLUGIN_OPTION_LEVEL" = 3 || exit 1')])
    const r = await runHooks('Stop', {}, { config: resolveHooks([{ source, hooks }]).config, projectDir: process.cwd() })
    expect(r.records[0]!.outcome).toBe('success')
  })
})
