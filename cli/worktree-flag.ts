import { resolve } from 'node:path'
import type { Values } from './command.js'

/**
 * `-w, --worktree [name]`: the session works in a git worktree of the project, made for it (or
 * entered again when one of that name exists) before anything of the session loads, so its cwd,
 * its settings and its shell are the worktree's. The worktree is left on disk at the end, as
 * Claude Code leaves it in print mode. Undefined without the flag; the code loads only with it.
 */
export async function worktreeCwd(values: Values, cwd: string, env: Record<string, string | undefined>): Promise<string | undefined> {
  const given = values.worktree
  if (typeof given !== 'string') return undefined
  const { openNamedWorktree, randomWorktreeName } = await import('../mods/_shared/named-worktree.js')
  return (await openNamedWorktree(resolve(cwd), given || randomWorktreeName(), env)).cwd
}
