import { defineMod } from '../../core/mod/define.js'
import type { ModApi } from '../../core/mod/api.js'
import { describeError } from '../../core/errors.js'
import { failure, registerTool } from '../_shared/register-tool.js'
import '../_shared/shell-cwd.js'
import { ENTER_DESCRIPTION, enterInput, enterWorktree, enteredText } from './enter.js'
import { EXIT_DESCRIPTION, exitInput, exitWorktree } from './exit.js'
import type { SessionWorktree } from './session-worktree.js'

/**
 * EnterWorktree and ExitWorktree: the main session moves into a git worktree of its project (made
 * through worktree.create, so a WorktreeCreate hook may make it instead) and back. Moving is the
 * shell's `cd`: Bash, relative paths of the file tools, and settings hooks follow the shell's
 * directory; the worktree counts as a working directory while the session is in it.
 */
export default defineMod({
  name: 'worktree',
  description: 'The EnterWorktree and ExitWorktree tools',
  uses: { shellCwd: 'optional', shellMove: 'optional', permissions: 'optional' },
  register(on) {
    const active = new Map<string, SessionWorktree>()
    on('session.start', async ($, e, next) => {
      active.delete(e.sessionId)
      const move = (dir: string) => $.capability.use('shellMove')?.(e.sessionId, dir)
      await registerTool($, {
        name: 'EnterWorktree', description: ENTER_DESCRIPTION, input: enterInput, isReadOnly: false,
        call: async (input, ctx) => {
          if (ctx.agentId !== undefined) return failure('EnterWorktree moves the main session; a subagent works where it was started (use isolation: "worktree" on the Agent call).')
          const from = $.capability.use('shellCwd')?.(e.sessionId) ?? ctx.cwd
          const now = active.get(e.sessionId)
          const r = await enterWorktree($, input, from, now)
          if (!('original' in r)) return r
          if (now) await workingDir($, 'removeDirectories', now.path)
          active.set(e.sessionId, r)
          await workingDir($, 'addDirectories', r.path)
          move(r.cwd)
          return { result: { worktreePath: r.path, ...(r.branch ? { worktreeBranch: r.branch } : {}) }, text: enteredText(r) }
        },
      })
      await registerTool($, {
        name: 'ExitWorktree', description: EXIT_DESCRIPTION, input: exitInput, isReadOnly: false,
        call: async (input, ctx) => {
          const now = ctx.agentId === undefined ? active.get(e.sessionId) : undefined
          const out = await exitWorktree(input, now, $.env.all(), () => {
            active.delete(e.sessionId)
            if (now) move(now.original)
          }, (path) => $.worktree.remove({ path }))
          if (now && !active.has(e.sessionId)) await workingDir($, 'removeDirectories', now.path)
          return out
        },
      })
      return next(e)
    })
  },
})

/** The worktree counts as a working directory of the session while it works there (the permissions mod's policy). */
async function workingDir($: ModApi, type: 'addDirectories' | 'removeDirectories', dir: string): Promise<void> {
  try {
    await $.capability.use('permissions')?.persistUpdate({ type, directories: [dir], destination: 'session' })
  } catch (err) {
    $.log.warn(`the permissions mod did not take ${dir} as a working directory: ${describeError(err)}`)
  }
}
