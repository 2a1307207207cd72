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
