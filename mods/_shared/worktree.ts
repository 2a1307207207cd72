import { execFile } from 'node:child_process'
import { realpath } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { promisify } from 'node:util'
import { describeError, ModloopError } from '../../core/errors.js'
import { processStart } from './process-start.js'

const run = promisify(execFile)

/** An isolated checkout (a subagent's, or a `--worktree` session's): a git worktree on a branch of its own. */
export interface Worktree {
  /** The worktree's root. */
  path: string
  /** Where the work happens: the project's directory, at the same place inside the worktree. */
  cwd: string
  branch: string
  /** The commit it started from: commits past it are the subagent's. */
  base: string
  repo: string
  /** The name `--worktree` or EnterWorktree gave it (absent for a subagent's): `--worktree <name>` goes back into it. */
  name?: string
}

/** A worktree left on disk at its task's end, for the caller to look at or merge. */
export interface KeptWorktree {
  path: string
  /** Absent for a worktree a WorktreeCreate hook made: git knows nothing of it. */
  branch?: string
  commits: number
  /** Files changed, added or deleted and not committed. */
  uncommitted: boolean
}

type Env = Record<string, string | undefined>

export async function git(args: string[], cwd: string, env: Env): Promise<string> {
  try {
    const { stdout } = await run('git', args, { cwd, env: { ...env, GIT_TERMINAL_PROMPT: '0' } as NodeJS.ProcessEnv, maxBuffer: 1 << 20 })
    return stdout.trim()
  } catch (err) {
    const stderr = (err as { stderr?: string }).stderr?.trim()
    throw new ModloopError('MODLOOP_ERR_USAGE', `git ${args.join(' ')} failed in ${cwd}: ${stderr || describeError(err)}`, { field: 'isolation' })
  }
}

/** The top of the git repository holding `cwd`, or undefined outside one. */
export async function repoTop(cwd: string, env: Env): Promise<string | undefined> {
  return git(['rev-parse', '--show-toplevel'], cwd, env).catch(() => undefined)
}

/** Adds a subagent's worktree at `path` on a new branch from the project's HEAD. The project must be a git repository with a commit. */
export async function createWorktree(projectCwd: string, path: string, id: string, env: Env): Promise<Worktree> {
  const repo = await repoTop(projectCwd, env)
  if (repo === undefined) throw new ModloopError('MODLOOP_ERR_USAGE', `isolation "worktree" needs a git repository: ${projectCwd} is not inside one`, { field: 'isolation' })
  const base = await git(['rev-parse', '--verify', 'HEAD^{commit}'], repo, env).catch(() => {
    throw new ModloopError('MODLOOP_ERR_USAGE', `isolation "worktree" needs a commit to start from: the repository at ${repo} has none`, { field: 'isolation' })
  })
  return addWorktree({ repo, projectCwd, path, branch: `modloop/task-${id}`, base }, env)
}

/** `git worktree add` of a new branch from `base`; the work goes on at the project's place inside it. */
export async function addWorktree(w: Omit<Worktree, 'cwd'> & { projectCwd: string }, env: Env): Promise<Worktree> {
  await git(['worktree', 'add', '-b', w.branch, w.path, w.base], w.repo, env)
  return { path: w.path, cwd: await placeIn(w.path, w.repo, w.projectCwd), branch: w.branch, base: w.base, repo: w.repo }
}

/** `projectCwd`'s place inside the worktree at `path` of `repo`. */
export async function placeIn(path: string, repo: string, projectCwd: string): Promise<string> {
  const inside = relative(await realpath(repo), await realpath(projectCwd))
  return inside ? join(path, inside) : path
}

/**
 * Ends a task's worktree: one where the subagent changed anything (commits, or files changed and
 * not committed) is kept, as Claude Code keeps it, so no work is lost; an unchanged one is
 * removed with its branch. A status git cannot tell counts as changed.
 */
export async function finishWorktree(w: Worktree, env: Env): Promise<{ kept: KeptWorktree } | { removed: true }> {
  const { commits, files } = await worktreeChanges(w, env)
  if (commits > 0 || files > 0) return { kept: { path: w.path, branch: w.branch, commits, uncommitted: files > 0 } }
  await removeWorktree(w, env)
  return { removed: true }
}

/** What a worktree holds that its removal would lose: commits past its base, and files not committed. */
export async function worktreeChanges(w: Pick<Worktree, 'path' | 'base'>, env: Env): Promise<{ commits: number; files: number }> {
  const commits = Number(await git(['rev-list', '--count', `${w.base}..HEAD`], w.path, env).catch(() => '0')) || 0
  // A status git cannot tell counts as one changed file: nothing is removed on a guess.
  const files = (await git(['status', '--porcelain'], w.path, env).catch(() => '?')).split('\n').filter(Boolean).length
  return { commits, files }
}

/**
 * Locks a session's worktree, as Claude Code locks its own: `git worktree prune` and a plain
 * `git worktree remove` then leave it alone while the session may still work there. The reason
 * names the session and its process, with the process's start where the system tells it (as Claude
 * Code's does), so whoever finds the lock can tell a live holder from a reused PID. One locked already stays as it is.
 */
export async function lockWorktree(path: string, name: string, repo: string, env: Env): Promise<void> {
  const start = processStart(process.pid)
  const holder = `pid ${process.pid}${start ? ` start ${start}` : ''}`
  await git(['worktree', 'lock', '--reason', `modloop session ${name} (${holder})`, path], repo, env).catch(() => undefined)
}

/** Unlocks a worktree locked for its session (lockWorktree); one not locked is left as it is. */
export async function unlockWorktree(path: string, repo: string, env: Env): Promise<void> {
  await git(['worktree', 'unlock', path], repo, env).catch(() => undefined)
}

/** Removes a worktree (unlocked first: git refuses a locked one) and its branch; the branch stays when git refuses to delete it. */
export async function removeWorktree(w: Pick<Worktree, 'path' | 'branch' | 'repo'>, env: Env): Promise<void> {
  await unlockWorktree(w.path, w.repo, env)
  await git(['worktree', 'remove', '--force', w.path], w.repo, env)
  await git(['branch', '-D', w.branch], w.repo, env).catch(() => undefined)
}
