import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { hasTmux, project, send, tmuxSuite, type Where } from './suite.js'

const suite = tmuxSuite(import.meta.filename)

const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-c', 'user.email=a@b', '-c', 'user.name=a', ...args], { cwd, encoding: 'utf8' }).trim()

async function repo(): Promise<Where> {
  const where = await project()
  git(where.cwd, 'init', '-q')
  git(where.cwd, 'commit', '-q', '--allow-empty', '-m', 'init')
  return where
}

const flat = (screen: string) => screen.replace(/\n/g, '')

describe.runIf(hasTmux)('leaving an interactive --worktree session (tmux)', () => {
  it('a worktree with nothing in it is removed with its branch, unasked', async () => {
    const where = await repo()
    const p = await suite.open([], where, { args: ['--worktree', 'w0'] })
    await p.keys('C-d')
    const screen = flat(await p.waitFor('[exited 0]'))
    expect(screen).toContain('Removing worktree…')
    expect(screen).toContain('Worktree removed (no changes)')
    expect(existsSync(join(where.cwd, '.claude', 'worktrees', 'w0'))).toBe(false)
    expect(git(where.cwd, 'branch', '--list', 'worktree-w0')).toBe('')
  })

  it('one with an uncommitted file asks; Keep leaves it, unlocked, and says where', async () => {
    const where = await repo()
    const wt = join(where.cwd, '.claude', 'worktrees', 'w1')
    const p = await suite.open([], where, { args: ['--worktree', 'w1'] })
    await writeFile(join(wt, 'new.txt'), 'hi\n')
    await send(p, '/exit')
    const asked = await p.waitFor('Exiting worktree session')
    expect(asked).toContain('You have 1 uncommitted file. These will be lost if you remove the worktree.')
    expect(asked).toContain('1. Keep worktree    Stays at')
    expect(asked).toContain('2. Remove worktree  All changes and commits will be lost.')
    await p.keys('Enter')
    expect(flat(await p.waitFor('[exited 0]'))).toContain(`Worktree kept. Your work is saved at ${wt} on branch worktree-w1`)
    expect(existsSync(join(wt, 'new.txt'))).toBe(true)
    expect(git(where.cwd, 'worktree', 'list', '--porcelain')).not.toContain('locked')
  })

  it('one with commits and files asks; Remove deletes it and its branch', async () => {
    const where = await repo()
    const wt = join(where.cwd, '.claude', 'worktrees', 'w2')
    const p = await suite.open([], where, { args: ['--worktree', 'w2'] })
    git(wt, 'commit', '-q', '--allow-empty', '-m', 'wip')
    await writeFile(join(wt, 'a.txt'), 'a\n')
    await writeFile(join(wt, 'b.txt'), 'b\n')
    await p.keys('C-d')
    expect((await p.waitFor('Exiting worktree session')).replace(/\s+/g, ' ')).toContain('You have 2 uncommitted files and 1 commit on worktree-w2. All will be lost if you remove.')
    await p.keys('2')
    expect(flat(await p.waitFor('[exited 0]'))).toContain('Worktree removed. 1 commit and uncommitted changes were discarded.')
    expect(existsSync(wt)).toBe(false)
    expect(git(where.cwd, 'branch', '--list', 'worktree-w2')).toBe('')
  })

  it('Esc in the dialog calls the exit off: the session goes on at its prompt, and a later exit asks again', async () => {
    const where = await repo()
    const wt = join(where.cwd, '.claude', 'worktrees', 'w3')
    const p = await suite.open([{ reply: 'still here' }], where, { args: ['--worktree', 'w3'] })
    await writeFile(join(wt, 'new.txt'), 'hi\n')
    await send(p, '/exit')
    await p.waitFor('Exiting worktree session')
    await p.keys('Escape')
    await p.waitFor((screen) => !screen.includes('Exiting worktree session'))
    await send(p, 'are you there')
    expect(await p.waitFor('still here')).not.toContain('[exited')
    await p.keys('C-d')
    await p.waitFor('Exiting worktree session')
    await p.keys('2')
    const screen = flat(await p.waitFor('[exited 0]'))
    expect(screen).toContain('Worktree removed. Uncommitted changes were discarded.')
    // Below the screen given back, in Claude Code's order: how to come back first, then the worktree's fate.
    expect(screen.indexOf('Resume this session with:')).toBeGreaterThanOrEqual(0)
    expect(screen.indexOf('Resume this session with:')).toBeLessThan(screen.indexOf('Removing worktree…'))
    expect(existsSync(wt)).toBe(false)
  })

  it('a worktree EnterWorktree made asks too; Keep leaves it, unlocked, and says where', async () => {
    const where = await repo()
    const wt = join(where.cwd, '.claude', 'worktrees', 'e1')
    const enter = { reply: [{ tool_use: { name: 'EnterWorktree', input: { name: 'e1' } } }] }
    const p = await suite.open([enter, { reply: 'in it' }], where, { args: ['--dangerously-skip-permissions'] })
    await send(p, 'go')
    await p.waitFor('in it')
    await writeFile(join(wt, 'new.txt'), 'hi\n')
    await send(p, '/exit')
    expect(await p.waitFor('Exiting worktree session')).toContain('You have 1 uncommitted file.')
    await p.keys('Enter')
    const screen = flat(await p.waitFor('[exited 0]'))
    expect(screen).toContain(`Worktree kept. Your work is saved at ${wt} on branch worktree-e1`)
    // A kept worktree is where the session is resumed, as Claude Code's hint says.
    expect(screen).toMatch(/Resume this session with:modloop --dangerously-skip-permissions --worktree "e1" --resume [0-9a-f-]{36}/)
    expect(existsSync(join(wt, 'new.txt'))).toBe(true)
    expect(git(where.cwd, 'worktree', 'list', '--porcelain')).not.toContain('locked')
  })
})
