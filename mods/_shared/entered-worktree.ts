import type { Worktree } from './worktree.js'

declare module '../../core/mod/capabilities.js' {
  interface Capabilities {
    /**
     * The git worktree a session made with EnterWorktree and still works in (undefined otherwise:
     * none, one entered by path, or one a WorktreeCreate hook made), provided by the worktree mod.
     * Leaving an interactive session asks what becomes of it, as for `--worktree`'s.
     */
    enteredWorktree: (sessionId: string) => Worktree | undefined
  }
}

export {}
