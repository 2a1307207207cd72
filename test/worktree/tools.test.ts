import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'

let dir: string
beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-worktree-tools-')))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-c', 'user.email=a@b', '-c', 'user.name=a', ...args], { cwd, encoding: 'utf8' }).trim()

async function repo(name: string): Promise<string> {
  const at = join(dir, name)
  await mkdir(at)
  git(at, 'init', '-q')
  git(at, 'commit', '-q', '--allow-empty', '-m', 'init')
  return at
}

const call = (name: string, input: Record<string, unknown>) => ({ reply: [{ tool_use: { name, input } }] })
/** Runs the calls one per request, and answers each tool result in order, as the model read it. */
async function session(cwd: string, calls: ReturnType<typeof call>[]): Promise<string[]> {
  const r = await runCli(['-p', 'go', '--dangerously-skip-permissions', '--trust-workspace'], { script: [...calls, { reply: 'done' }], cwd })
  expect(r.code, r.err).toBe(0)
  return ((r.requests.at(-1)!.body as any).messages as { role: string; content: any }[])
    .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
    .filter((b) => b.type === 'tool_result')
    .map((b) => (typeof b.content === 'string' ? b.content : b.content.map((c: { text: string }) => c.text).join('')))
}

describe('EnterWorktree and ExitWorktree move the main session into a git worktree and back', () => {
  it('enters a new worktree (the shell works there), refuses to remove it with changes, removes it when told to discard them', async () => {
    const at = await repo('changes')
    const wt = join(at, '.claude', 'worktrees', 'w1')
    const results = await session(at, [
      call('EnterWorktree', { name: 'w1' }),
      call('EnterWorktree', { name: 'w2' }),
      call('Bash', { command: 'pwd; git branch --show-current; echo hi > new.txt; git worktree list --porcelain | grep -c \'^locked modloop session w1 \'' }),
      call('ExitWorktree', { action: 'remove' }),
      call('ExitWorktree', { action: 'remove', discard_changes: true }),
      call('Bash', { command: 'pwd' }),
      call('ExitWorktree', { action: 'keep' }),
    ])
    expect(results).toEqual([
      `Created worktree at “${wt}” on branch “worktree-w1”. The session is now working in the worktree. Use ExitWorktree to leave mid-session, or exit the session to be prompted.`,
      'Already in a worktree session. Pass `path` to switch into another existing worktree, or use ExitWorktree to leave this one before creating a new worktree.',
      `${wt}\nworktree-w1\n1`,
      'Worktree has 1 uncommitted file. Removing will discard this work permanently. Confirm with the user, then re-invoke with discard_changes: true — or use action: "keep" to preserve the worktree.',
      `Exited and removed worktree at “${wt}”. Discarded 1 uncommitted file. Session is now back in “${at}”.`,
      at,
      expect.stringMatching(/^Nothing to exit: this session has not entered a worktree with EnterWorktree\./),
    ])
    expect(git(at, 'worktree', 'list')).not.toContain(wt)
    expect(git(at, 'branch', '--list', 'worktree-w1')).toBe('')
  })

  it('moves the whole session: the model is told, Glob and a subagent work in the worktree; ExitWorktree moves it back', async () => {
    const at = await repo('moves')
    const wt = join(at, '.claude', 'worktrees', 'm1')
    await writeFile(join(at, 'project-only.txt'), 'not in the worktree\n')
    const r = await runCli(['-p', 'go', '--dangerously-skip-permissions', '--trust-workspace'], { cwd: at, script: [
      call('EnterWorktree', { name: 'm1' }),
      call('Glob', { pattern: '*.txt' }),
      call('Agent', { description: 'where', prompt: 'where are you?', run_in_background: false }),
      call('Bash', { command: 'pwd' }),
      { reply: 'sub done' },
      call('ExitWorktree', { action: 'keep' }),
      { reply: 'done' },
    ] })
    expect(r.code, r.err).toBe(0)
    const sent = r.requests.map((q) => JSON.stringify((q.body as any).messages))
    expect(sent[1]).toContain(JSON.stringify(`# Environment update\n - Primary working directory: ${wt} (was ${at})\n - This is a git worktree`).slice(1, -1))
    expect(sent[2]).not.toContain('project-only.txt')
    expect(sent[2]).toContain('No files found')
    expect(sent[4]).toContain(JSON.stringify(wt))
    expect(sent[6]).toContain(JSON.stringify(`# Environment update\n - Primary working directory: ${at} (was ${wt})\n - The primary working directory is no longer a git worktree.`).slice(1, -1))
  })

  it('after EnterWorktree, a call\'s relative path is judged where the tool reads it: from the worktree', async () => {
    const at = await repo('judged')
    // From the worktree, ../.. is the project's .claude folder: inside the project, so searched unasked.
    const r = await runCli(['-p', 'go', '--trust-workspace', '--allowedTools', 'EnterWorktree'], { cwd: at, script: [
      call('EnterWorktree', { name: 'j1' }),
      call('Glob', { pattern: '*', path: '../..' }),
      { reply: 'done' },
    ] })
    expect(r.code, r.err).toBe(0)
    const sent = JSON.stringify((r.requests[2]!.body as any).messages.at(-1))
    expect(sent).not.toMatch(/requires approval|outside the working directories|is_error/)
  })

  it('keep leaves the worktree and its commits; one entered by path is never removed', async () => {
    const at = await repo('keep')
    const wt = join(at, '.claude', 'worktrees', 'k1')
    const results = await session(at, [
      call('EnterWorktree', { name: 'k1' }),
      call('Bash', { command: 'git -c user.email=a@b -c user.name=a commit -q --allow-empty -m wip' }),
      call('ExitWorktree', { action: 'remove' }),
      call('ExitWorktree', { action: 'keep' }),
      call('EnterWorktree', { path: '.claude/worktrees/k1' }),
      call('ExitWorktree', { action: 'remove', discard_changes: true }),
    ])
    expect(results[2]).toBe('Worktree has 1 commit on “worktree-k1”. Removing will discard this work permanently. Confirm with the user, then re-invoke with discard_changes: true — or use action: "keep" to preserve the worktree.')
    expect(results[3]).toBe(`Exited worktree. Your work is preserved at “${wt}” on branch “worktree-k1”. Session is now back in “${at}”.`)
    expect(git(at, 'worktree', 'list', '--porcelain')).not.toContain('locked')
    expect(results[4]).toBe(`Entered worktree at “${wt}” on branch “worktree-k1”. The session is now working in the worktree. Use ExitWorktree to leave mid-session, or exit the session to be prompted.`)
    expect(results[5]).toMatch(/^This session is not the owner of the worktree at .* so this tool will not remove it\./)
    expect(git(at, 'worktree', 'list')).toContain(wt)
  })

  it('outside a git repository both ways are refused; a WorktreeCreate hook makes a plain directory to work in', async () => {
    const plain = join(dir, 'plain')
    await mkdir(plain)
    expect(await session(plain, [call('EnterWorktree', { name: 'x' }), call('EnterWorktree', { path: '/tmp' })])).toEqual([
      'Cannot create a worktree: not in a git repository and no WorktreeCreate hooks are configured. Configure WorktreeCreate hooks in settings.json to use worktree isolation with other VCS systems.',
      'Cannot enter an existing worktree: the current directory is not in a git repository.',
    ])
    const made = join(dir, 'made-by-hook')
    await mkdir(join(plain, '.claude'))
    await writeFile(join(plain, '.claude', 'settings.json'), JSON.stringify({ hooks: { WorktreeCreate: [{ hooks: [{ type: 'command', command: `mkdir -p ${made}; echo ${made}` }] }] } }))
    const results = await session(plain, [call('EnterWorktree', {}), call('Bash', { command: 'pwd' }), call('ExitWorktree', { action: 'keep' }), call('Bash', { command: 'pwd' })])
    expect(results[0]).toBe(`Created worktree at “${made}”. The session is now working in the worktree. Use ExitWorktree to leave mid-session, or exit the session to be prompted.`)
    expect(results.slice(1)).toEqual([made, `Exited worktree. Your work is preserved at “${made}”. Session is now back in “${plain}”.`, plain])
  })

  it("removing a hook's worktree asks for discard_changes, then runs the WorktreeRemove hook from inside it", async () => {
    const at = join(dir, 'vcs')
    const made = join(dir, 'vcs-work')
    await mkdir(join(at, '.claude'), { recursive: true })
    await writeFile(join(at, '.claude', 'settings.json'), JSON.stringify({ hooks: {
      WorktreeCreate: [{ hooks: [{ type: 'command', command: `mkdir -p ${made}; echo ${made}` }] }],
      WorktreeRemove: [{ hooks: [{ type: 'command', command: `cat > ${dir}/remove.json; rm -rf ${made}` }] }],
    } }))
    const results = await session(at, [
      call('EnterWorktree', { name: 'v' }),
      call('ExitWorktree', { action: 'remove' }),
      call('ExitWorktree', { action: 'remove', discard_changes: true }),
      call('Bash', { command: 'pwd' }),
    ])
    expect(results.slice(1)).toEqual([
      `Could not verify worktree state at “${made}”. Refusing to remove without explicit confirmation. Confirm with the user, then re-invoke with discard_changes: true to proceed — or use action: "keep" to preserve the worktree.`,
      `Exited and removed worktree at “${made}”. Session is now back in “${at}”.`,
      at,
    ])
    const input = JSON.parse(await readFile(join(dir, 'remove.json'), 'utf8'))
    expect(input).toMatchObject({ hook_event_name: 'WorktreeRemove', worktree_path: made, cwd: made })
    expect(input).not.toHaveProperty('permission_mode')
    expect(existsSync(made)).toBe(false)
  })
})
