import { execFileSync } from 'node:child_process'
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'

let dir: string
beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'modloop-worktree-hooks-')))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

/** A project outside git whose settings hold `hook` as its WorktreeCreate command hook. */
async function project(name: string, hook: string): Promise<string> {
  const at = join(dir, name)
  await mkdir(join(at, '.claude'), { recursive: true })
  await writeFile(join(at, '.claude', 'settings.json'), JSON.stringify({ hooks: { WorktreeCreate: [{ hooks: [{ type: 'command', command: hook }] }] } }))
  return at
}

const isolated = [
  { reply: [{ tool_use: { name: 'Agent', input: { description: 'look', prompt: 'SUBTASK: say where you are', subagent_type: 'general-purpose', run_in_background: false, isolation: 'worktree' } } }] },
  { when: { firstUserText: 'SUBTASK' }, reply: [{ tool_use: { name: 'Bash', input: { command: 'pwd' } } }] },
  { when: { firstUserText: 'SUBTASK' }, reply: 'here' },
  { reply: 'done' },
]
const cli = (cwd: string) => runCli(['-p', 'go', '--dangerously-skip-permissions', '--trust-workspace'], { script: isolated, cwd })
const lastResult = (r: Awaited<ReturnType<typeof cli>>) => JSON.stringify((r.requests.at(-1)!.body as any).messages.at(-1).content)

describe('WorktreeCreate hooks make the worktree of an isolated subagent', () => {
  it('a hook that makes a plain directory replaces git: the subagent works there, and the directory is kept', async () => {
    const made = join(dir, 'made')
    const at = await project('plain', `cat > ${dir}/input.json; mkdir -p ${made}; echo banner; echo ${made}`)
    const r = await cli(at)
    expect(r.code, r.err).toBe(0)
    const input = JSON.parse(await readFile(join(dir, 'input.json'), 'utf8'))
    expect(input).toMatchObject({ hook_event_name: 'WorktreeCreate', cwd: at, name: expect.stringMatching(/^agent-a[0-9a-f]+$/) })
    expect(input).not.toHaveProperty('permission_mode')
    const sub = r.requests.find((q) => JSON.stringify(q.body).includes('SUBTASK') && JSON.stringify(q.body).includes('tool_result'))
    expect(JSON.stringify((sub!.body as any).messages.at(-1).content)).toContain(made)
    expect(lastResult(r)).toContain(`The subagent worked in the worktree ${made}, which a WorktreeCreate hook made; the worktree is kept.`)
  })

  it('a hook that fails, or prints no directory, fails the isolation and the agent does not start', async () => {
    for (const [name, hook, why] of [['failing', 'echo nope >&2; exit 1', 'exited with status 1: nope'], ['nowhere', `echo ${dir}/missing`, `${dir}/missing is not a directory`]]) {
      const r = await cli(await project(name!, hook!))
      expect(r.code, r.err).toBe(0)
      expect(lastResult(r)).toContain(`The agent could not be isolated: WorktreeCreate hook failed:`)
      expect(lastResult(r)).toContain(why)
      expect(r.requests.some((q) => JSON.stringify((q.body as any).messages[0]).includes('SUBTASK'))).toBe(false)
    }
  })

  it('without a hook, git makes it; outside a git repository that is refused', async () => {
    const at = join(dir, 'bare')
    await mkdir(at)
    const r = await cli(at)
    expect(lastResult(r)).toContain('isolation \\"worktree\\" needs a git repository')
    execFileSync('git', ['init', '-q'], { cwd: at })
    execFileSync('git', ['-c', 'user.email=a@b', '-c', 'user.name=a', 'commit', '-q', '--allow-empty', '-m', 'init'], { cwd: at })
    const ok = await cli(at)
    expect(JSON.stringify(ok.requests.find((q) => JSON.stringify(q.body).includes('tool_result') && JSON.stringify(q.body).includes('SUBTASK'))!.body)).toMatch(/worktrees\/a[0-9a-f]+/)
  })
})
