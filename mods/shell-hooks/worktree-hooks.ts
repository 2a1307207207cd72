import { stat } from 'node:fs/promises'
import { resolve } from 'node:path'
import type { On } from '../../core/bus/types.js'
import type { ModApi } from '../../core/mod/api.js'
import type { HookBridge } from './bridge.js'
import { HOOK_BUDGET_MS } from './tool-hooks.js'

/**
 * `worktree.create` and `worktree.remove`: a configured WorktreeCreate hook replaces git's worktree entirely (spec
 * settings-hooks §2.25), for a project under another VCS: it makes the directory and prints its
 * path. A failed hook, no path, or a path that is no directory fails the creation. A WorktreeRemove
 * hook then removes such a directory.
 */
export function registerWorktreeHooks(on: On, bridgeOf: ($: ModApi) => HookBridge | undefined): void {
  on('worktree.create', async ($, e, next) => {
    const b = bridgeOf($)
    if (!b?.has('WorktreeCreate')) return next(e)
    // Claude Code sends no permission_mode on WorktreeCreate.
    const r = await b.fire('WorktreeCreate', { name: e.name }, { noPermissionMode: true })
    if (r.blocked || !r.worktreePath) return { deny: `WorktreeCreate hook failed: ${r.blockReason ?? 'it printed no worktree path'}` }
    // A relative path is the hook's: it runs in the session's directory.
    const path = resolve(e.cwd, r.worktreePath)
    const isDir = await stat(path).then((s) => s.isDirectory(), () => false)
    return isDir ? { path } : { deny: `WorktreeCreate hook failed: ${path} is not a directory` }
  }, { budgetMs: HOOK_BUDGET_MS })

  // The WorktreeRemove hook removes what a WorktreeCreate hook made; its output is discarded (spec §2.26).
  on('worktree.remove', async ($, e, next) => {
    const b = bridgeOf($)
    if (b?.has('WorktreeRemove')) await b.fire('WorktreeRemove', { worktree_path: e.path }, { noPermissionMode: true })
    return next(e)
  }, { budgetMs: HOOK_BUDGET_MS })
}
