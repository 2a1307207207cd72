import { execFileSync } from 'node:child_process'
import { readFile, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import bash from '../../mods/bash/index.js'
import read from '../../mods/read/index.js'
import { resolveHooks } from '../../hooks-runner/index.js'
import write from '../../mods/write/index.js'
import { makeBox, writeSettings, cmd, run, lastUserTexts, type Box } from './helpers.js'

const EX = resolve(__dirname, '../../examples/hooks')
let box: Box
beforeEach(async () => { box = await makeBox() })
afterEach(async () => { await box.remove() })

describe('examples/hooks through the loop', () => {
  it('block-rm-rf.sh refuses a recursive removal and lets other commands run', async () => {
    await writeSettings(box, { PreToolUse: [{ matcher: 'Bash', hooks: [cmd(`sh ${EX}/block-rm-rf.sh`)] }] })
    await writeFile(join(box.project, 'keep.txt'), 'x')
    const r = await run(box, [
      { reply: [{ tool_use: { id: 'toolu_rm', name: 'Bash', input: { command: 'rm -rf .' } } }] },
      { reply: [{ tool_use: { id: 'toolu_ls', name: 'Bash', input: { command: 'ls' } } }] },
      { reply: 'ok' },
    ], 'go', { mods: [bash] })
    expect(lastUserTexts(r.requests[1]!.body)[0]).toContain('removes files recursively')
    expect(lastUserTexts(r.requests[2]!.body)[0]).toContain('keep.txt')
  })

  it('format-after-edit.mjs tidies a written file and tells the model', async () => {
    await writeSettings(box, { PostToolUse: [{ matcher: 'Edit|Write', hooks: [cmd(`node ${EX}/format-after-edit.mjs`)] }] })
    const file = join(box.project, 'a.txt')
    const r = await run(box, [{ reply: [{ tool_use: { id: 'toolu_w', name: 'Write', input: { file_path: file, content: 'a  \nb\t\n\n\n' } } }] }, { reply: 'ok' }], 'go', { mods: [write] })
    expect(await readFile(file, 'utf8')).toBe('a\nb\n')
    expect(lastUserTexts(r.requests[1]!.body).join('\n')).toContain('was reformatted')
  })

  it('git-status-context.sh puts the git status before the first prompt', async () => {
    execFileSync('git', ['init', '-q', '-b', 'trunk'], { cwd: box.project })
    await writeFile(join(box.project, 'new.txt'), 'x')
    await writeSettings(box, { SessionStart: [{ hooks: [cmd(`sh ${EX}/git-status-context.sh`)] }] })
    const r = await run(box, [{ reply: 'ok' }])
    const texts = lastUserTexts(r.requests[0]!.body).join('\n')
    expect(texts).toContain('branch trunk')
    expect(texts).toContain('?? new.txt')
  })

  it('require-tests-pass.sh blocks the end until the marker exists', async () => {
    await writeSettings(box, { Stop: [{ hooks: [cmd(`sh ${EX}/require-tests-pass.sh`)] }] })
    const r = await run(box, [
      { reply: 'done' },
      { reply: [{ tool_use: { id: 'toolu_t', name: 'Bash', input: { command: 'touch .tests-passed' } } }] },
      { reply: 'tests pass now' },
    ], 'go', { mods: [bash] })
    expect(lastUserTexts(r.requests[1]!.body).join('\n')).toContain('The tests have not passed yet')
    expect(r.result).toMatchObject({ terminal_reason: 'completed', result: 'tests pass now' })
  })

  it('protect-secrets.py (python) denies reading .env with its reason and lets other files through', async () => {
    await writeSettings(box, { PreToolUse: [{ matcher: 'Edit|Write|Read', hooks: [cmd(`python3 ${EX}/protect-secrets.py`)] }] })
    await writeFile(join(box.project, '.env'), 'TOKEN=secret')
    await writeFile(join(box.project, 'notes.txt'), 'plain notes')
    const r = await run(box, [
      { reply: [{ tool_use: { id: 'toolu_env', name: 'Read', input: { file_path: join(box.project, '.env') } } }] },
      { reply: [{ tool_use: { id: 'toolu_notes', name: 'Read', input: { file_path: join(box.project, 'notes.txt') } } }] },
      { reply: 'ok' },
    ], 'go', { mods: [read] })
    const denied = lastUserTexts(r.requests[1]!.body)[0]!
    expect(denied).toContain('.env may hold secrets')
    expect(denied).not.toContain('TOKEN=secret')
    expect(lastUserTexts(r.requests[2]!.body)[0]).toContain('plain notes')
    expect(r.result.permission_denials).toMatchObject([{ tool_name: 'Read', tool_use_id: 'toolu_env' }])
  })

  it('settings.example.json is valid settings and names every example script', async () => {
    const file = join(EX, 'settings.example.json')
    const settings = JSON.parse(await readFile(file, 'utf8'))
    // Every entry resolves: no schema error, no warning (unknown events or fields, bad matchers), one handler per script.
    const resolved = resolveHooks([{ source: { kind: 'project', file, label: 'Project Settings', dedupClass: 'settings' }, hooks: settings.hooks }])
    expect(resolved.errors).toEqual([])
    expect(resolved.warnings).toEqual([])
    expect(resolved.config.handlers.map((h) => [h.event, h.matcher ?? '', h.config.type])).toEqual([
      ['SessionStart', '', 'command'],
      ['PreToolUse', 'Bash', 'command'],
      ['PreToolUse', 'Edit|Write|Read', 'command'],
      ['PostToolUse', 'Edit|Write', 'command'],
      ['Stop', '', 'command'],
    ])
    const text = JSON.stringify(settings)
    for (const script of ['block-rm-rf.sh', 'format-after-edit.mjs', 'git-status-context.sh', 'require-tests-pass.sh', 'protect-secrets.py']) expect(text).toContain(script)
  })
})
