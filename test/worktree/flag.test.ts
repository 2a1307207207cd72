import { execFileSync } from 'node:child_process'
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fillOptionalValues } from '../../cli/optional-value.js'
import { runCli } from '../helpers/cli.js'

let dir: string
beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-worktree-flag-')))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim()

async function repo(name: string): Promise<string> {
  const at = join(dir, name)
  await mkdir(at)
  git(at, 'init', '-q')
  git(at, '-c', 'user.email=a@b', '-c', 'user.name=a', 'commit', '-q', '--allow-empty', '-m', 'init')
  return at
}

const pwd = [{ reply: [{ tool_use: { name: 'Bash', input: { command: 'pwd; git branch --show-current' } } }] }, { reply: 'done' }]
const toolResult = (r: Awaited<ReturnType<typeof runCli>>) => JSON.stringify((r.requests[1]!.body as any).messages.at(-1).content[0].content)

describe('-w, --worktree [name]: the session works in a git worktree of its own', () => {
  it('makes .claude/worktrees/<name> on branch worktree-<name>, the session working there; it stays at the end', async () => {
    const at = await repo('named')
    const r = await runCli(['-p', '--worktree', 'feat/x', '--dangerously-skip-permissions', 'go'], { script: pwd, cwd: at })
    expect(r.code).toBe(0)
    const path = join(at, '.claude', 'worktrees', 'feat+x')
    expect(toolResult(r)).toContain(`${path}\\nworktree-feat+x`)
    expect(git(at, 'worktree', 'list')).toContain(path)
  })

  it('locks the worktree for the session, and it stays locked after -p: a plain git worktree remove refuses it', async () => {
    const at = await repo('locked')
    const r = await runCli(['-p', '--worktree', 'lk', 'go'], { script: [{ reply: 'done' }], cwd: at })
    expect(r.code, r.err).toBe(0)
    // The process's start (Linux: /proc/<pid>/stat field 22) tells a live holder from a reused PID, as in Claude Code's reason.
    const holder = process.platform === 'linux' ? String.raw`pid \d+ start \d+` : String.raw`pid \d+( start .+)?`
    expect(git(at, 'worktree', 'list', '--porcelain')).toMatch(new RegExp(String.raw`^locked modloop session lk \(${holder}\)$`, 'm'))
    expect(() => git(at, 'worktree', 'remove', join(at, '.claude', 'worktrees', 'lk'))).toThrow()
  })

  it('the Agent SDK\'s stream-json transport (extraArgs { worktree }) works there too', async () => {
    const at = await repo('sdk')
    const user = JSON.stringify({ type: 'user', session_id: '', message: { role: 'user', content: [{ type: 'text', text: 'go' }] }, parent_tool_use_id: null })
    const r = await runCli(['--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose', '--worktree=s1', '--dangerously-skip-permissions'], { script: pwd, cwd: at, stdin: `${user}\n` })
    expect(r.code, r.err).toBe(0)
    expect(toolResult(r)).toContain(`${join(at, '.claude', 'worktrees', 's1')}\\nworktree-s1`)
  })

  it('-w with no name makes one up', async () => {
    const at = await repo('unnamed')
    const r = await runCli(['-p', 'go', '-w', '--dangerously-skip-permissions'], { script: pwd, cwd: at })
    expect(r.code).toBe(0)
    expect(toolResult(r)).toMatch(/\.claude\/worktrees\/([a-z]+-[a-z]+-[0-9a-f]{4})\\nworktree-\1/)
  })

  it('refuses outside a git repository and refuses a bad name, with exit code 1 and no request', async () => {
    const plain = join(dir, 'plain')
    await mkdir(plain)
    const outside = await runCli(['-p', 'go', '--worktree'], { script: [{ reply: 'x' }], cwd: plain })
    expect(outside.code).toBe(1)
    expect(outside.err).toContain(`Can only use --worktree in a git repository, but ${plain} is not a git repository. Configure a WorktreeCreate hook to use --worktree with other VCS systems.`)
    expect(outside.requests).toHaveLength(0)
    const bad = await runCli(['-p', 'go', '--worktree=a b'], { script: [{ reply: 'x' }], cwd: await repo('bad') })
    expect(bad.code).toBe(1)
    expect(bad.err).toContain('Invalid worktree name "a b"')
  })

  it('a WorktreeCreate hook makes the directory instead of git, outside a repository or in one; the session works there', async () => {
    const plain = join(dir, 'hooked')
    const made = join(dir, 'hooked-made')
    await mkdir(join(plain, '.claude'), { recursive: true })
    const hook = `cat > ${dir}/create.json; mkdir -p ${made}; echo banner; echo ${made}`
    await writeFile(join(plain, '.claude', 'settings.json'), JSON.stringify({ hooks: { WorktreeCreate: [{ hooks: [{ type: 'command', command: hook }] }] } }))
    const r = await runCli(['-p', '--worktree', 'n1', '--dangerously-skip-permissions', 'go'], { script: [{ reply: [{ tool_use: { name: 'Bash', input: { command: 'pwd' } } }] }, { reply: 'done' }], cwd: plain })
    expect(r.code, r.err).toBe(0)
    expect(toolResult(r)).toBe(JSON.stringify(made))
    expect(JSON.parse(await readFile(join(dir, 'create.json'), 'utf8'))).toMatchObject({ hook_event_name: 'WorktreeCreate', cwd: plain, name: 'n1', session_id: expect.any(String) })
    const inRepo = await repo('hooked-repo')
    await mkdir(join(inRepo, '.claude'))
    await writeFile(join(inRepo, '.claude', 'settings.json'), JSON.stringify({ hooks: { WorktreeCreate: [{ hooks: [{ type: 'command', command: hook }] }] } }))
    const again = await runCli(['-p', '--worktree', 'n3', '--dangerously-skip-permissions', 'go'], { script: [{ reply: [{ tool_use: { name: 'Bash', input: { command: 'pwd' } } }] }, { reply: 'done' }], cwd: inRepo })
    expect(toolResult(again)).toBe(JSON.stringify(made))
    expect(git(inRepo, 'worktree', 'list')).not.toContain('n3')
    await writeFile(join(plain, '.claude', 'settings.json'), JSON.stringify({ hooks: { WorktreeCreate: [{ hooks: [{ type: 'command', command: 'echo nope >&2; exit 1' }] }] } }))
    const failed = await runCli(['-p', '--worktree', 'n2', 'go'], { script: [{ reply: 'x' }], cwd: plain })
    expect(failed.code).toBe(1)
    expect(failed.err).toContain('Error creating worktree: WorktreeCreate hook failed:')
    expect(failed.requests).toHaveLength(0)
    const inline = join(dir, 'hooked-inline')
    await mkdir(inline)
    const settings = JSON.stringify({ hooks: { WorktreeCreate: [{ hooks: [{ type: 'command', command: hook }] }] } })
    const viaFlag = await runCli(['-p', '--worktree', 'n4', '--settings', settings, '--dangerously-skip-permissions', 'go'], { script: [{ reply: [{ tool_use: { name: 'Bash', input: { command: 'pwd' } } }] }, { reply: 'done' }], cwd: inline })
    expect(viaFlag.code, viaFlag.err).toBe(0)
    expect(toolResult(viaFlag)).toBe(JSON.stringify(made))
  })

  it('the value may be left out: alone, or before another option, it is empty', () => {
    expect(fillOptionalValues(['-p', 'go', '-w'], { '-w': 'worktree' })).toEqual(['-p', 'go', '--worktree='])
    expect(fillOptionalValues(['-w', '--model', 'm'], { '-w': 'worktree' })).toEqual(['--worktree=', '--model', 'm'])
    expect(fillOptionalValues(['-w', 'n', 'p'], { '-w': 'worktree' })).toEqual(['--worktree', 'n', 'p'])
  })
})
