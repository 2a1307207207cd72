import { existsSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { hasTmux, project, send, tmuxSuite, type Where } from './suite.js'

const suite = tmuxSuite(import.meta.filename)
const open = suite.open

const hookSettings = (word: string) => JSON.stringify({
  hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: `echo ${word} >> "$CLAUDE_PROJECT_DIR/hook-log.txt"` }] }] },
})

/** A project with a UserPromptSubmit hook, in a folder already trusted: only the hook review is left to ask. */
async function trustedProject(): Promise<Where> {
  const where = await project({ '.claude/settings.json': hookSettings('one') })
  await writeFile(join(where.home, 'trusted.json'), JSON.stringify({ workspaces: { [where.cwd]: { trustedAt: new Date().toISOString() } } }))
  return where
}

const hookLog = (where: Where) => readFile(join(where.cwd, 'hook-log.txt'), 'utf8').catch(() => '')

describe.runIf(hasTmux)('thinking and project hook review (tmux, 80×24)', () => {
  it('collapses ended thinking to one dim line; Ctrl+O shows the last turn\'s thinking in full, and collapses again (NO_COLOR)', async () => {
    const where = await project()
    const thought = 'First I read the notes.\nThen I weigh the options.\nThe secret plan is seven.'
    const p = await open({
      steps: [
        { reply: [{ thinking: thought }, { text: 'answer one' }] },
        { reply: [{ thinking: 'A second, shorter thought.' }, { text: 'answer two' }] },
        { reply: [{ thinking: 'Third thought, collapsed again.' }, { text: 'answer three' }] },
      ],
    }, where, { env: { NO_COLOR: '1' } })
    await send(p, 'think about it')
    await p.waitFor('answer one')
    let screen = await p.waitFor(/∴ Thought for (<1s|\d+s) \(3 lines\) · ctrl\+o to expand\n/)
    expect(screen).not.toContain('The secret plan is seven.')

    await p.keys('C-o')
    screen = await p.waitFor('∴ Thinking of the last turn · ctrl+o to collapse')
    expect(screen).toMatch(/∴ First I read the notes\.\n {2}Then I weigh the options\.\n {2}The secret plan is seven\./)
    // While expanded, new thinking prints in full.
    await send(p, 'again')
    await p.waitFor('answer two')
    await p.waitFor('∴ A second, shorter thought.')

    await p.keys('C-o')
    await p.waitFor('∴ Thinking collapsed · ctrl+o to expand')
    await send(p, 'once more')
    await p.waitFor('answer three')
    screen = await p.waitFor(/∴ Thought for (<1s|\d+s) \(1 line\) · ctrl\+o to expand\n/)
    expect(screen).not.toContain('Third thought, collapsed again.')
    const styled = await p.tmux('capture-pane', '-e', '-p', '-t', p.name)
    expect(styled).not.toMatch(/\u001b\[2m/)
    await p.save('thinking-collapsed')
  })

  it('asks once per new or changed project hook: approving records it, the next start does not ask, a changed command asks again and declining leaves it out', async () => {
    const where = await trustedProject()
    let p = await open({ steps: [{ reply: 'first answer' }] }, where)
    let screen = await p.waitFor('not approved yet')
    expect(screen).toContain('UserPromptSubmit: echo one >> "$CLAUDE_PROJECT_DIR/hook-log.txt"')
    expect(screen).toContain('from .claude/settings.json')
    await p.save('hook-review-ask')
    await p.keys('1')
    await p.waitFor('Approved 1 project hook')
    await send(p, 'hello')
    await p.waitFor('first answer')
    expect(await hookLog(where)).toBe('one\n')
    expect(await readFile(join(where.home, 'trusted.json'), 'utf8')).toContain('"hooks"')
    await p.keys('C-d')
    await p.waitFor('[exited 0]')

    p = await open({ steps: [{ reply: 'second answer' }] }, where)
    await p.waitFor(/^›/m)
    await send(p, 'hello again')
    screen = await p.waitFor('second answer')
    expect(screen).not.toContain('not approved yet')
    expect(await hookLog(where)).toBe('one\none\n')
    await p.keys('C-d')
    await p.waitFor('[exited 0]')

    await writeFile(join(where.cwd, '.claude/settings.json'), hookSettings('two'))
    p = await open({ steps: [{ reply: 'third answer' }] }, where)
    screen = await p.waitFor('not approved yet')
    expect(screen).toContain('echo two')
    await p.keys('2')
    await p.waitFor('Not approved: this session runs without it; the next start asks again.')
    await send(p, 'without the hook')
    await p.waitFor('third answer')
    expect(await hookLog(where)).toBe('one\none\n')
    await send(p, '/hooks')
    // Long rows wrap at 80 columns: read the listing unwrapped.
    const unwrapped = (screen: string) => screen.replace(/\n/g, '')
    await p.waitFor((screen) => unwrapped(screen).includes('hook-log.txt"  (Project Settings:') && unwrapped(screen).includes('settings.json)  [not approved]'))
    await p.save('hook-review')
    await p.keys('C-d')
    await p.waitFor('[exited 0]')
    expect(existsSync(join(where.home, 'trusted.json'))).toBe(true)
  })
})
