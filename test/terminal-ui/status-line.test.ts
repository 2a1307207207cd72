import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { hasTmux, project, send, tmuxSuite, type Where } from './suite.js'

const suite = tmuxSuite(import.meta.filename)

/** A user settings file whose statusLine runs `script` (sh), kept next to it. */
async function withStatusLine(where: Where, script: string, more: Record<string, unknown> = {}): Promise<void> {
  const dir = join(where.home, '.claude')
  await mkdir(dir, { recursive: true })
  await writeFile(join(dir, 'status.sh'), script)
  await writeFile(join(dir, 'settings.json'), JSON.stringify({ statusLine: { type: 'command', command: `sh ${join(dir, 'status.sh')}`, ...more } }))
}

describe.runIf(hasTmux)('a custom status line (tmux)', () => {
  it("shows the command's lines under the prompt, from the JSON on its stdin, and runs it again after a turn", async () => {
    const where = await project()
    await withStatusLine(where, [
      'input=$(cat)',
      `model=$(printf '%s' "$input" | sed -n 's/.*"model":{"id":"\\([^"]*\\)".*/\\1/p')`,
      `cwd=$(printf '%s' "$input" | sed -n 's/.*"current_dir":"\\([^"]*\\)".*/\\1/p')`,
      `cost=$(printf '%s' "$input" | sed -n 's/.*"total_cost_usd":\\([0-9.e-]*\\).*/\\1/p')`,
      'echo "SL model=$model child=$CLAUDE_CODE_CHILD_SESSION"',
      'echo "SL dir=$(basename "$cwd") cost=$cost"',
    ].join('\n'), { padding: 1 })
    const p = await suite.open({ steps: [{ reply: 'noted' }] }, where, { args: ['--model', 'claude-sonnet-4-5'] })
    let screen = await p.waitFor('SL dir=project cost=0')
    expect(screen).toContain('   SL model=claude-sonnet-4-5 child=1')
    // modloop's own line stays, under the custom one.
    expect(screen.split('\n').findIndex((l) => l.includes('⏵ default'))).toBeGreaterThan(screen.split('\n').findIndex((l) => l.includes('SL dir=')))
    await send(p, 'hello')
    screen = await p.waitFor(/SL dir=project cost=0\.\d*[1-9]/)
    expect(screen).toContain('noted')
  })

  it("carries the lines the session's edits added and removed", async () => {
    const where = await project({ 'notes.txt': 'one\ntwo\n' })
    await withStatusLine(where, [
      'input=$(cat)',
      `added=$(printf '%s' "$input" | sed -n 's/.*"total_lines_added":\\([0-9]*\\).*/\\1/p')`,
      `removed=$(printf '%s' "$input" | sed -n 's/.*"total_lines_removed":\\([0-9]*\\).*/\\1/p')`,
      'echo "SL +$added -$removed"',
    ].join('\n'))
    const notes = join(where.cwd, 'notes.txt')
    const p = await suite.open({
      steps: [
        { reply: [{ tool_use: { name: 'Read', input: { file_path: notes } } }] },
        { reply: [{ tool_use: { name: 'Edit', input: { file_path: notes, old_string: 'two', new_string: 'TWO\nthree' } } }] },
        { reply: 'edited' },
      ],
    }, where, { args: ['--permission-mode', 'acceptEdits'] })
    await p.waitFor('SL +0 -0')
    await send(p, 'edit it')
    expect(await p.waitFor('SL +2 -1')).toContain('edited')
  })

  it('a failing command leaves the line empty and is reported once, not at every run', async () => {
    const where = await project()
    await withStatusLine(where, 'cat >/dev/null\necho "never shown"\necho "no git here" >&2\nexit 3\n')
    const p = await suite.open({ steps: [{ reply: 'first' }, { reply: 'second' }] }, where)
    // The notice wraps at 80 columns: the screen is read joined.
    await p.waitFor((text) => text.replace(/\n/g, '').includes('failed (exit 3): no git here'))
    await send(p, 'one')
    await p.waitFor('first')
    await send(p, 'two')
    const screen = await p.waitFor('second')
    const history = await p.history()
    expect(history.replace(/\n/g, '').split('failed (exit 3)').length - 1).toBe(1)
    expect(screen).not.toContain('never shown')
  })
})
