import { resolve } from 'node:path'
import type { Worktree } from '../mods/_shared/worktree.js'
import type { Values } from './command.js'

/**
 * `-w, --worktree [name]`: the session works in a git worktree of the project, made for it (or
 * entered again when one of that name exists) before anything of the session loads, so its cwd,
 * its settings and its shell are the worktree's. A WorktreeCreate hook of the settings makes the
 * directory instead of git where one is configured (so a project under another VCS can use it). The worktree is left on disk at the end,
 * as Claude Code leaves it in print mode. Answers where the session works, and the git worktree
 * (none when a hook made the directory) for the terminal to ask about when the session ends.
 * Undefined without the flag; the code loads only with it.
 */
export async function sessionWorktree(values: Values, cwd: string, env: Record<string, string | undefined>): Promise<{ cwd: string; worktree?: Worktree } | undefined> {
  const given = values.worktree
  if (typeof given !== 'string') return undefined
  const { openNamedWorktree, randomWorktreeName, worktreeNameProblem } = await import('../mods/_shared/named-worktree.js')
  const name = given || randomWorktreeName()
  const at = resolve(cwd)
  if (worktreeNameProblem(name) === undefined) {
    const { hookWorktree } = await import('./worktree-hook.js')
    const settings = Array.isArray(values.settings) ? values.settings.map(String) : undefined
    const made = await hookWorktree({ cwd: at, name, env, settings, sessionId: typeof values['session-id'] === 'string' ? values['session-id'] : undefined })
    if (made !== undefined) return { cwd: made }
  }
  const worktree = await openNamedWorktree(at, name, env)
  return { cwd: worktree.cwd, worktree }
}
