import { execFile } from 'node:child_process'
import { realpath } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { promisify } from 'node:util'
import { describeError, ModloopError } from '../../core/errors.js'

const run = promisify(execFile)

/** A subagent's isolated checkout: a git worktree on a branch of its own, made from the project's HEAD. */
export interface Worktree {
  /** The worktree's root. */
  path: string
  /** Where the subagent works: the project's directory, at the same place inside the worktree. */
  cwd: string
  branch: string
  /** The commit it started from: commits past it are the subagent's. */
  base: string
  repo: string
}

/** A worktree left on disk at its task's end, for the caller to look at or merge. */
export interface KeptWorktree {
  path: string
  branch: string
  commits: number
  /** Files changed, added or deleted and not committed. */
  uncommitted: boolean
}

type Env = Record<string, string | undefined>

async function git(args: string[], cwd: string, env: Env): Promise<string> {
  try {
    const { stdout } = await run('git', args, { cwd, env: { ...env, GIT_TERMINAL_PROMPT: '0' } as NodeJS.ProcessEnv, maxBuffer: 1 << 20 })
    return stdout.trim()
  } catch (err) {
    const stderr = (err as { stderr?: string }).stderr?.trim()
    throw new ModloopError('MODLOOP_ERR_USAGE', `git ${args.join(' ')} failed in ${cwd}: ${stderr || describeError(err)}`, { field: 'isolation' })
  }
}

/** Adds a worktree at `path` on a new branch from the project's HEAD. The project must be a git repository with a commit. */
export async function createWorktree(projectCwd: string, path: string, id: string, env: Env): Promise<Worktree> {
  let repo: string
  try {
    repo = await git(['rev-parse', '--show-toplevel'], projectCwd, env)
  } catch {
    throw new ModloopError('MODLOOP_ERR_USAGE', `isolation "worktree" needs a git repository: ${projectCwd} is not inside one`, { field: 'isolation' })
  }
  const base = await git(['rev-parse', '--verify', 'HEAD^{commit}'], repo, env).catch(() => {
    throw new ModloopError('MODLOOP_ERR_USAGE', `isolation "worktree" needs a commit to start from: the repository at ${repo} has none`, { field: 'isolation' })
  })
  const branch = `modloop/task-${id}`
  await git(['worktree', 'add', '-b', branch, path, base], repo, env)
  const inside = relative(await realpath(repo), await realpath(projectCwd))
  return { path, cwd: inside ? join(path, inside) : path, branch, base, repo }
}

/**
 * Ends a task's worktree: one where the subagent changed anything (commits, or files changed and
 * not committed) is kept, as Claude Code keeps it, so no work is lost; an unchanged one is
 * removed with its branch. A status git cannot tell counts as changed.
 */
export async function finishWorktree(w: Worktree, env: Env): Promise<{ kept: KeptWorktree } | { removed: true }> {
  const commits = Number(await git(['rev-list', '--count', `${w.base}..HEAD`], w.path, env).catch(() => '0')) || 0
  const uncommitted = await git(['status', '--porcelain'], w.path, env).then((s) => s !== '', () => true)
  if (commits > 0 || uncommitted) return { kept: { path: w.path, branch: w.branch, commits, uncommitted } }
  await git(['worktree', 'remove', '--force', w.path], w.repo, env)
  await git(['branch', '-D', w.branch], w.repo, env)
  return { removed: true }
}
