import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { boxPerTest, writeSettings, cmd, dump, type Box } from './helpers.js'

let box: Box
boxPerTest((b) => (box = b))

const env = () => ({ HOME: box.home, MODLOOP_HOME: join(box.root, 'modloop-home') })
const cli = (args: string[], script: unknown = []) => runCli(args, { script, cwd: box.project, env: env() })

describe('modloop hooks list', () => {
  it('lists resolved hooks with their source files, project hooks with a review fingerprint', async () => {
    await writeSettings(box, { PreToolUse: [{ matcher: 'Bash', hooks: [cmd('./check.sh')] }] })
    await writeSettings(box, { Stop: [{ hooks: [cmd('notify-done')] }] }, join(box.home, '.claude', 'settings.json'))
    const r = await cli(['hooks', 'list', '--json'])
    expect(r.code).toBe(0)
    const out = JSON.parse(r.out)
    expect(out.hooks).toEqual([
      expect.objectContaining({ event: 'Stop', command: 'notify-done', source: 'User Settings', file: join(box.home, '.claude', 'settings.json') }),
      expect.objectContaining({ event: 'PreToolUse', matcher: 'Bash', command: './check.sh', source: 'Project Settings', file: join(box.project, '.claude', 'settings.json'), approved: false, fingerprint: expect.any(String) }),
    ])
    const approved = await cli(['hooks', 'list', '--approve', '--json'])
    expect(JSON.parse((await cli(['hooks', 'list', '--json'])).out).hooks[1].approved).toBe(true)
    expect(approved.err).toContain('approved 1 project hook')
  })

  it('/hooks in a session lists the same hooks, by event, with their files', async () => {
    await writeSettings(box, { PreToolUse: [{ matcher: 'Bash', hooks: [cmd('./check.sh')] }] })
    const r = await cli(['-p', '/hooks'])
    expect(r.code, r.err).toBe(0)
    expect(r.out).toContain('Settings hooks (1):')
    expect(r.out).toContain(`  PreToolUse\n    [Bash] ./check.sh  (Project Settings: ${join(box.project, '.claude', 'settings.json')})  [not approved]`)
  })

  it('a bad settings file is named, and the rest still lists', async () => {
    await writeSettings(box, { PreToolUse: [{ matcher: 'Bash', hooks: [cmd('./check.sh')] }] })
    const { writeFile } = await import('node:fs/promises')
    await writeFile(join(box.home, '.claude', 'settings.json'), '{ not json')
    const r = await cli(['hooks', 'list'])
    expect(r.code).toBe(1)
    expect(r.out).toContain('./check.sh')
    expect(r.out).toContain(join(box.home, '.claude', 'settings.json'))
  })
})

describe('modloop hooks test', () => {
  it('runs the matching hooks on a synthetic input and prints each result and the merged decision', async () => {
    await writeSettings(box, { PreToolUse: [{ matcher: 'Bash', hooks: [cmd(`${dump(box, 'PreToolUse')}; echo 'no rm' >&2; exit 2`)] }] })
    const r = await cli(['hooks', 'test', 'PreToolUse', '--tool', 'Bash', '--input', '{"tool_input":{"command":"rm -rf /"}}'])
    expect(r.code).toBe(2)
    expect(r.out).toContain('exit 2')
    expect(r.out).toContain('stderr: no rm')
    expect(r.out).toContain('"decision":"deny"')
    const json = await cli(['hooks', 'test', 'PreToolUse', '--input', '{"tool_input":{"command":"ls"}}', '--json'])
    expect(JSON.parse(json.out).hooks[0]).toMatchObject({ exitCode: 2, file: join(box.project, '.claude', 'settings.json') })
    expect((await cli(['hooks', 'test', 'Nope'])).code).toBe(1)
  })

  it('waits for async hooks, and for one that printed {"async": true}, and prints how each ended', async () => {
    await writeSettings(box, { Stop: [{ hooks: [cmd("sleep 0.1; echo 'flagged later'", { async: true }), cmd(`echo '{"async":true}'; sleep 0.1; echo 'went on'`)] }] })
    const r = await cli(['hooks', 'test', 'Stop'])
    expect(r.code).toBe(0)
    expect(r.out).toContain('stdout: flagged later')
    expect(r.out).toContain('went on')
    expect(r.out.match(/outcome success \(async\), exit 0/g)).toHaveLength(2)
    const json = JSON.parse((await cli(['hooks', 'test', 'Stop', '--json'])).out)
    expect(json.hooks.map((h: { stdout: string; async?: boolean }) => [h.stdout.trim(), h.async])).toEqual([['flagged later', true], ['went on', true]])
  })
})

describe('-p --include-hook-events', () => {
  it('emits hook_started and hook_response messages in stream-json', async () => {
    await writeSettings(box, { UserPromptSubmit: [{ hooks: [cmd("echo 'context from hook'")] }] })
    const r = await cli(['-p', 'hi', '--output-format', 'stream-json', '--include-hook-events'], [{ reply: 'hello' }])
    const lines = r.out.trim().split('\n').map((l) => JSON.parse(l))
    const started = lines.find((l) => l.subtype === 'hook_started')
    const response = lines.find((l) => l.subtype === 'hook_response')
    expect(started).toMatchObject({ type: 'system', hook_name: 'UserPromptSubmit', hook_event: 'UserPromptSubmit', hook_id: expect.any(String) })
    expect(response).toMatchObject({ hook_id: started.hook_id, exit_code: 0, outcome: 'success', stdout: 'context from hook\n', stderr: '' })
    expect(lines.findIndex((l) => l.subtype === 'hook_response')).toBeLessThan(lines.findIndex((l) => l.type === 'result'))
    const quiet = await cli(['-p', 'hi', '--output-format', 'stream-json'], [{ reply: 'hello' }])
    expect(quiet.out).not.toContain('hook_started')
  })

  it('reports an unreviewed project hook that ran on stderr', async () => {
    await writeSettings(box, { UserPromptSubmit: [{ hooks: [cmd('true')] }] })
    const r = await cli(['-p', 'hi'], [{ reply: 'hello' }])
    expect(r.code).toBe(0)
    expect(r.err).toContain('ran a project hook not yet reviewed')
    // Approved, it runs unreported: the store's fingerprints are matched as the hook runs.
    expect((await cli(['hooks', 'list', '--approve'])).code).toBe(0)
    const again = await cli(['-p', 'hi'], [{ reply: 'hello' }])
    expect(again.code).toBe(0)
    expect(again.err).not.toContain('not yet reviewed')
  })
})

describe('-p with SessionStart outputs and --effort', () => {
  it('runs initialUserMessage first, names the session for `sessions list`, and gives hooks the effort', async () => {
    const { readFile } = await import('node:fs/promises')
    const out = join(box.out, 'effort.txt')
    await writeSettings(box, {
      SessionStart: [{ hooks: [cmd(`printf '%s' '${JSON.stringify({ hookSpecificOutput: { hookEventName: 'SessionStart', initialUserMessage: 'warm up', sessionTitle: 'Nightly triage' } })}'`)] }],
      Stop: [{ hooks: [cmd(`cat > /dev/null; echo "$CLAUDE_EFFORT" >> ${out}`)] }],
    })
    const r = await cli(['-p', 'the real question', '--model', 'claude-opus-4-7', '--effort', 'medium', '--output-format', 'json'], [{ reply: 'warmed' }, { reply: 'answer' }])
    expect(r.code).toBe(0)
    expect(JSON.parse(r.out)).toMatchObject({ result: 'answer', num_turns: expect.any(Number) })
    expect((await readFile(out, 'utf8')).trim().split('\n')).toEqual(['medium', 'medium'])
    const listed = await cli(['sessions', 'list'])
    expect(listed.code).toBe(0)
    expect(listed.out).toContain('Nightly triage')
  })
})
