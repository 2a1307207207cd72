import { describeError, ModloopError } from '../core/errors.js'
import type { WorktreeCreateInput, WorktreeRemoveInput } from '../core/events/types.js'
import type { ModHost } from '../core/mod/host.js'

type CreateArgs = WorktreeCreateInput & { make: () => Promise<{ path: string }> }

/**
 * Serves `$.worktree.create` and `$.worktree.remove` as the worktree.create and worktree.remove events. The caller's own way (git) is what
 * lies beneath every handler, so a handler that answers (the WorktreeCreate hook of a non-git
 * project) replaces it, as Claude Code's hook replaces `git worktree add`.
 */
export function installWorktree(host: ModHost): void {
  host.provide({
    'worktree.create': async (mod: string, args: CreateArgs) => {
      if (typeof args?.make !== 'function' || typeof args.name !== 'string' || typeof args.cwd !== 'string') {
        throw new ModloopError('MODLOOP_ERR_USAGE', `${mod}: $.worktree.create needs name, cwd and make`, { mod })
      }
      let made = false
      const { make, ...e } = args
      // The caller's failure is an answer (`deny`), not a throw: a handler beneath which it threw would count as failed itself.
      const r = await host.bus.emit('worktree.create', e, async () => {
        made = true
        return make().catch((err: unknown) => ({ deny: describeError(err) }))
      })
      return 'deny' in r ? r : { path: r.path, made }
    },
    'worktree.remove': async (mod: string, args: WorktreeRemoveInput) => {
      if (typeof args?.path !== 'string') throw new ModloopError('MODLOOP_ERR_USAGE', `${mod}: $.worktree.remove needs the path`, { mod })
      await host.bus.emit('worktree.remove', { path: args.path })
    },
  })
}
