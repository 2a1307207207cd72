declare module '../../core/mod/capabilities.js' {
  interface Capabilities {
    /**
     * The directory a session's shell is in after `cd` (undefined until it first moves), provided
     * by the mod that runs the shell. Settings hooks run there and report it as `cwd` (spec §2.1, §4.2).
     */
    shellCwd: (sessionId: string) => string | undefined
    /** Moves a session's shell to `dir`, as a `cd` would, for a tool that changes where the session works (EnterWorktree). */
    shellMove: (sessionId: string, dir: string) => void
  }
}

export {}
