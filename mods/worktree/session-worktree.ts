/** The worktree a session entered with EnterWorktree, and where it was before. */
export interface SessionWorktree {
  path: string
  /** Where the session works inside it. */
  cwd: string
  /** Where the session goes back to on ExitWorktree. */
  original: string
  /** Made by this session's EnterWorktree {name} (so ExitWorktree may remove it), not entered by path. */
  owned: boolean
  /** A WorktreeCreate hook made it: git knows nothing of it. */
  byHook: boolean
  branch?: string
  base?: string
  repo?: string
  /** The name it was made under (EnterWorktree {name}). */
  name?: string
}

/** A quoted path or branch, as Claude Code writes them in these tools' results. */
export const q = (s: string) => `\u201c${s}\u201d`
