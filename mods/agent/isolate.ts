import { join } from 'node:path'
import type { ModApi } from '../../core/mod/api.js'
import { ModloopError } from '../../core/errors.js'
import { sessionDirOf } from '../transcripts/store/paths.js'
import { sessionPath } from '../_shared/session-dir.js'
import { createWorktree, type Worktree } from '../_shared/worktree.js'

/** A worktree a WorktreeCreate hook made: modloop knows only its path, so it is kept at the end, as Claude Code keeps it. */
export interface HookWorktree { path: string; cwd: string; byHook: true }

/**
 * The isolated worktree of subagent `id`, through `$.worktree.create` (named `agent-<id>`, as
 * Claude Code names it): a WorktreeCreate hook makes it where one is configured, else git does,
 * at `<session dir>/worktrees/<id>`.
 */
export async function isolate($: ModApi, projectCwd: string, id: string): Promise<Worktree | HookWorktree> {
  let made: Worktree | undefined
  const r = await $.worktree.create({
    name: `agent-${id}`, cwd: projectCwd,
    make: async () => {
      made = await createWorktree(projectCwd, join(sessionDirOf(sessionPath($)), 'worktrees', id), id, $.env.all())
      return { path: made.path }
    },
  })
  if ('deny' in r) throw new ModloopError('MODLOOP_ERR_WORKTREE', r.deny)
  return r.made && made ? made : { path: r.path, cwd: r.path, byHook: true }
}
