import { stat } from 'node:fs/promises'
import { dirname, join } from 'node:path'

/**
 * The nearest directory at or above `dir` that holds `.git` (a directory, or the file a worktree
 * or submodule has), or undefined outside a repository. A filesystem walk, so it costs no process.
 */
export async function findRepoRoot(dir: string): Promise<string | undefined> {
  for (let current = dir; ; current = dirname(current)) {
    if (await stat(join(current, '.git')).then(() => true, () => false)) return current
    if (dirname(current) === current) return undefined
  }
}

/**
 * The directories whose `.claude` folder is the project's: from the repository root down to
 * `cwd` (just `cwd` outside a repository), nearer `cwd` last, as Claude Code reads commands,
 * skills and agents, so one defined at the root works from a subfolder. The home folder's
 * `.claude` is the user's own, never the project's.
 */
export async function projectDirs(cwd: string, home: string): Promise<string[]> {
  const root = await findRepoRoot(cwd)
  const dirs: string[] = []
  for (let d = cwd; ; d = dirname(d)) {
    if (d !== home) dirs.unshift(d)
    if (root === undefined || d === root || dirname(d) === d) return dirs
  }
}
