import { existsSync, readFileSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import writeMod from '../../mods/write/index.js'
import { runCli } from '../helpers/cli.js'
import { boxPerTest, cmd, dumped, notices, run, script, writeSettings, type Box } from './helpers.js'

let box: Box
boxPerTest((b) => (box = b))

/** A PreToolUse hook that records each firing and defers every call until the project holds a file named `approved`. */
async function deferringHook(file = join(box.project, '.claude', 'settings.json')): Promise<void> {
  const gate = await script(box, 'gate.sh', [
    `cat >> "${box.out}/PreToolUse.jsonl"; echo >> "${box.out}/PreToolUse.jsonl"`,
    'if [ -e "$CLAUDE_PROJECT_DIR/approved" ]; then decision=allow; else decision=defer; fi',
    `printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"%s","permissionDecisionReason":"waiting for a person"}}' "$decision"`,
  ].join('\n'))
  await writeSettings(box, { PreToolUse: [{ matcher: 'Write', hooks: [cmd(`sh ${gate}`)] }] }, file)
}

const write = (path: string) => ({ reply: [{ tool_use: { id: 'toolu_held', name: 'Write', input: { file_path: path, content: 'written at last' } } }] })

describe('a PreToolUse hook that answers "defer"', () => {
  it('-p ends the turn with tool_deferred; -p --resume fires the hook again for the same call, which then runs', async () => {
    await deferringHook()
    const out = join(box.project, 'out.txt')
    const cli = (args: string[], steps: unknown) => runCli(['-p', ...args, '--output-format', 'json'], {
      script: steps, cwd: box.project, stdin: '', env: { HOME: box.home, MODLOOP_HOME: join(box.root, 'modloop-home') },
    })
    const first = await cli(['write the file'], [write(out)])
    expect(first.code, first.err).toBe(0)
    const held = JSON.parse(first.out)
    expect(held).toMatchObject({
      subtype: 'success', is_error: false, stop_reason: 'tool_deferred', terminal_reason: 'tool_deferred',
      deferred_tool_use: { id: 'toolu_held', name: 'Write', input: { file_path: out, content: 'written at last' } },
    })
    expect(existsSync(out)).toBe(false)

    await writeFile(join(box.project, 'approved'), '')
    const second = await cli(['--resume', held.session_id], [{ reply: 'written after approval' }])
    expect(second.code, second.err).toBe(0)
    expect(JSON.parse(second.out)).toMatchObject({ result: 'written after approval', terminal_reason: 'completed', session_id: held.session_id })
    expect(readFileSync(out, 'utf8')).toBe('written at last')
    // The hook saw the same call twice: once deferring it, once on resume.
    const fired = await dumped(box, 'PreToolUse')
    expect(fired.map((f) => [f.tool_use_id, f.tool_name])).toEqual([['toolu_held', 'Write'], ['toolu_held', 'Write']])
    expect(fired[1]!.session_id).toBe(held.session_id)
  })

  it('is ignored in an interactive session, with a warning: the call is not run and the turn goes on', async () => {
    // A user-level hook: an interactive session leaves unapproved project hooks out.
    await deferringHook(join(box.home, '.claude', 'settings.json'))
    const out = join(box.project, 'out.txt')
    const r = await run(box, [write(out), { reply: 'went on without it' }], 'write the file', { surface: 'terminal', isInteractive: true, mods: [writeMod] })
    expect(r.result).toMatchObject({ terminal_reason: 'completed', result: 'went on without it' })
    expect(r.result.deferred_tool_use).toBeUndefined()
    expect(existsSync(out)).toBe(false)
    const toolResult = (r.requests[1]!.body as any).messages.at(-1).content[0]
    expect(toolResult).toMatchObject({ tool_use_id: 'toolu_held', is_error: true, content: expect.stringContaining('a deferral is honoured only') })
    expect(r.messages).toContainEqual(expect.objectContaining({ type: 'system', subtype: 'informational', level: 'warning' }))
    expect(notices(r.messages)).toContain('Warning: A permission check deferred Write, but a deferral is honoured only in headless sessions (-p); the call was not run.')
    expect(await dumped(box, 'PreToolUse')).toHaveLength(1)
  })
})
