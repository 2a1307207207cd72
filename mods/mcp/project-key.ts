import { readFile, realpath, stat } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'

/**
 * The key of a project's entry in the user's `.claude.json` (`projects[key]`, where local-scope
 * servers live), as Claude Code picks it: the root of the git repository the folder is in — a
 * worktree's main checkout, so every worktree shares it — else the folder itself, by real path.
 * Started in a subfolder, a session still finds the servers added at the repository's root.
 */
export async function projectKey(cwd: string): Promise<string> {
  const real = await realpath(cwd).catch(() => cwd)
  for (let dir = real; ; dir = dirname(dir)) {
    const git = await stat(join(dir, '.git')).catch(() => undefined)
    if (git?.isDirectory()) return dir
    if (git?.isFile()) return (await mainCheckout(join(dir, '.git'))) ?? dir
    if (dirname(dir) === dir) return real
  }
}

/** A worktree's `.git` file names its git dir, whose `commondir` is the main repository's `.git`. */
async function mainCheckout(gitFile: string): Promise<string | undefined> {
  const gitdir = /^gitdir:\s*(.+)$/m.exec(await readFile(gitFile, 'utf8').catch(() => ''))?.[1]?.trim()
  if (!gitdir) return undefined
  const at = resolve(dirname(gitFile), gitdir)
  const common = (await readFile(join(at, 'commondir'), 'utf8').catch(() => ''))?.trim()
  // No commondir: a submodule, whose own checkout is the project.
  if (!common) return undefined
  const main = resolve(at, common)
  return dirname(await realpath(main).catch(() => main))
}
