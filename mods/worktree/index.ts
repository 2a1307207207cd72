import { defineMod } from '../../core/mod/define.js'
import type { ModApi } from '../../core/mod/api.js'
import { describeError } from '../../core/errors.js'
import { failure, registerTool } from '../_shared/register-tool.js'
import '../_shared/shell-cwd.js'
import '../_shared/entered-worktree.js'
import { ENTER_DESCRIPTION, enterInput, enterWorktree, enteredText } from './enter.js'
import { EXIT_DESCRIPTION, exitInput, exitWorktree } from './exit.js'
import type { SessionWorktree } from './session-worktree.js'

/**
 * EnterWorktree and ExitWorktree: the main session moves into a git worktree of its project (made
 * through worktree.create, so a WorktreeCreate hook may make it instead) and back. The session
 * moves there ($.session.move: its tools, subagents and the model's idea of where it works) and its
 * shell with it; the worktree counts as a working directory while the session is in it.
 */
export default defineMod({
  name: 'worktree',
  description: 'The EnterWorktree and ExitWorktree tools',
  provides: ['enteredWorktree'],
  uses: { shellCwd: 'optional', shellMove: 'optional', permissions: 'optional' },
  register(on, _options, $) {
    const active = new Map<string, SessionWorktree>()
    // Only one this session made with git: one entered by path is not its to remove, and git knows nothing of a hook's.
    $.capability.provide('enteredWorktree', (sessionId) => {
      const w = active.get(sessionId)
      if (!w?.owned || w.byHook || !w.branch || !w.base || !w.repo) return undefined
      return { path: w.path, cwd: w.cwd, branch: w.branch, base: w.base, repo: w.repo, ...(w.name ? { name: w.name } : {}) }
    })
    on('session.start', async ($, e, next) => {
      active.delete(e.sessionId)
      // The session moves (its tools, subagents, and what the model is told), and the shell with it, as a `cd`.
      const move = (dir: string, context: string[]) => {
        $.session.move({ cwd: dir, context })
        $.capability.use('shellMove')?.(e.sessionId, dir)
      }
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
          move(r.cwd, r.byHook ? HOOK_MADE : GIT_WORKTREE)
          return { result: { worktreePath: r.path, ...(r.branch ? { worktreeBranch: r.branch } : {}) }, text: enteredText(r) }
        },
      })
      await registerTool($, {
        name: 'ExitWorktree', description: EXIT_DESCRIPTION, input: exitInput, isReadOnly: false,
        call: async (input, ctx) => {
          const now = ctx.agentId === undefined ? active.get(e.sessionId) : undefined
          const out = await exitWorktree(input, now, $.env.all(), () => {
            active.delete(e.sessionId)
            if (now) move(now.original, [LEFT])
          }, (path) => $.worktree.remove({ path }))
          if (now && !active.has(e.sessionId)) await workingDir($, 'removeDirectories', now.path)
          return out
        },
      })
      return next(e)
    })
  },
})

/** The environment update's lines for the model, in the spirit of Claude Code's. */
const GIT_WORKTREE = [
  'This is a git worktree: a separate checkout of the repository on a branch of its own. Run every command from here; do not `cd` back to the original checkout.',
  'The git stash is shared with the original checkout and every other worktree: set work aside with a temporary commit rather than `git stash`.',
]
const HOOK_MADE = ['This is a worktree a WorktreeCreate hook made: a separate copy of the project. Run every command from here.']
const LEFT = 'The primary working directory is no longer a git worktree.'

/** The worktree counts as a working directory of the session while it works there (the permissions mod's policy). */
async function workingDir($: ModApi, type: 'addDirectories' | 'removeDirectories', dir: string): Promise<void> {
  try {
    await $.capability.use('permissions')?.persistUpdate({ type, directories: [dir], destination: 'session' })
  } catch (err) {
    $.log.warn(`the permissions mod did not take ${dir} as a working directory: ${describeError(err)}`)
  }
}
