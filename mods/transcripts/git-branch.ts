import { readFile, stat } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'

/**
 * The checked-out branch of the repository holding `cwd`, read from `.git/HEAD` (a worktree's
 * `.git` file points at its own HEAD). No git process: a transcript only wants the name.
 */
export async function gitBranch(cwd: string): Promise<string | undefined> {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const dotGit = join(dir, '.git')
    const info = await stat(dotGit).catch(() => undefined)
    if (info) {
      const gitDir = info.isDirectory() ? dotGit : await pointedGitDir(dotGit, dir)
      const head = gitDir ? await readFile(join(gitDir, 'HEAD'), 'utf8').catch(() => '') : ''
      const ref = /^ref: refs\/heads\/(.+)$/m.exec(head)
      return ref ? ref[1]!.trim() : head.trim() ? 'HEAD' : undefined
    }
    if (dirname(dir) === dir) return undefined
  }
}

async function pointedGitDir(file: string, dir: string): Promise<string | undefined> {
  const text = await readFile(file, 'utf8').catch(() => '')
  const m = /^gitdir:\s*(.+)$/m.exec(text)
  return m ? resolve(dir, m[1]!.trim()) : undefined
}
