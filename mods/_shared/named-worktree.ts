import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import { ModloopError } from '../../core/errors.js'
import { randomHex } from '../../core/random.js'
import { addWorktree, git, lockWorktree, placeIn, repoTop, type Worktree } from './worktree.js'

type Env = Record<string, string | undefined>

const SEGMENT = /^[A-Za-z0-9._-]+$/
const MAX_NAME = 64
const WORDS = ['amber', 'bold', 'brisk', 'calm', 'clear', 'keen', 'quiet', 'swift', 'oak', 'pine', 'river', 'stone', 'cedar', 'fern', 'harbor', 'meadow']

/** Why `name` cannot name a worktree, or undefined when it can (Claude Code's rule). */
export function worktreeNameProblem(name: string): string | undefined {
  if (name.length > MAX_NAME) return `Invalid worktree name "${name}": it must be at most ${MAX_NAME} characters`
  if (!name.split('/').every((s) => SEGMENT.test(s))) {
    return `Invalid worktree name "${name}": each "/"-separated segment must be non-empty, made of letters, digits, dots, underscores and dashes alone`
  }
  return undefined
}

/** A name like `swift-cedar-a3f2`, for a worktree asked for without one. */
export function randomWorktreeName(): string {
  const hex = randomHex(4)
  const word = (i: number) => WORDS[parseInt(hex.slice(i, i + 2), 16) % WORDS.length]
  return `${word(0)}-${word(2)}-${hex.slice(4, 8)}`
}

/**
 * The session worktree `name` of the repository holding `projectCwd`, as Claude Code's `--worktree`
 * makes it: `<repo>/.claude/worktrees/<name>` (a "/" in the name becomes "+") on branch
 * `worktree-<name>`, from origin's default branch where the repository has one, else from HEAD.
 * One that already exists is entered again, so a session can go back to its work. Either way it is
 * locked for the session (lockWorktree).
 */
export async function openNamedWorktree(projectCwd: string, name: string, env: Env): Promise<Worktree> {
  const problem = worktreeNameProblem(name)
  if (problem) throw new ModloopError('MODLOOP_ERR_WORKTREE', `Error creating worktree: ${problem}`)
  const repo = await repoTop(projectCwd, env)
  if (repo === undefined) throw new ModloopError('MODLOOP_ERR_WORKTREE', `Can only use --worktree in a git repository, but ${projectCwd} is not a git repository. Configure a WorktreeCreate hook to use --worktree with other VCS systems.`)
  const slug = name.replaceAll('/', '+')
  const path = join(repo, '.claude', 'worktrees', slug)
  const branch = `worktree-${slug}`
  if (await stat(join(path, '.git')).then(() => true, () => false)) {
    const base = await git(['rev-parse', 'HEAD'], path, env)
    await lockWorktree(path, name, repo, env)
    return { path, cwd: await placeIn(path, repo, projectCwd), branch, base, repo, name }
  }
  const fresh = await git(['rev-parse', '--verify', '--quiet', 'refs/remotes/origin/HEAD^{commit}'], repo, env).catch(() => '')
  const base = fresh || await git(['rev-parse', '--verify', 'HEAD^{commit}'], repo, env).catch(() => {
    throw new ModloopError('MODLOOP_ERR_WORKTREE', `Error creating worktree: the repository at ${repo} has no commit to start from`)
  })
  const made = await addWorktree({ repo, projectCwd, path, branch, base }, env)
  await lockWorktree(path, name, repo, env)
  return { ...made, name }
}
