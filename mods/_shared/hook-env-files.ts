declare module '../../core/mod/capabilities.js' {
  interface Capabilities {
    /**
     * A session's `CLAUDE_ENV_FILE` files (spec §4.3), provided by the mod that runs settings hooks:
     * the files SessionStart (and the other env-file events') hooks may append `export` lines to, in
     * settings order. The shell sources those that exist before every command of the session.
     */
    hookEnvFiles: (sessionId: string) => readonly string[]
  }
}

export {}
