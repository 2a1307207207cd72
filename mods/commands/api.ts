/**
 * The command or skill that runs now: set when a person runs `/name` or the model calls the Skill
 * tool, cleared by the next prompt (spec loop-and-sdk §6.2). Its frontmatter grants belong to
 * other mods: the permissions mod allows `allowedTools` until then, the commands mod sends that
 * turn's requests to `model`, and the shell-hooks mod registers `hooks`.
 */
export interface Invocation {
  command: string
  /** Where the command file is: a project's widens access only in a trusted workspace. */
  source: 'project' | 'user' | 'plugin'
  file?: string
  allowedTools?: string[]
  model?: string
  /** Frontmatter hooks: the shell-hooks mod keeps them for the rest of the session. */
  hooks?: Record<string, unknown>
}

/** What the commands mod offers other mods, as the `commands` capability. */
export interface CommandsApi {
  /** Reads the command and skill directories again (a SessionStart hook's `reloadSkills`). */
  reload(): Promise<void>
  /** The command or skill that runs now in the main conversation, or with `agentId` in that subagent, if one does. */
  invocation(agentId?: string): Invocation | undefined
  /**
   * Whether the Skill tool should ask before it runs this skill (by the name the tool takes): as
   * in Claude Code, only a skill whose frontmatter widens what may run (`allowed-tools`, `hooks`)
   * asks; any other only adds instructions, and an unknown name runs nothing.
   */
  skillAsks(name: string): boolean
  /** A skill's rendered instructions (no arguments), by the name the Skill tool takes: what an agent type's `skills` preload. */
  skillText(name: string): Promise<string | undefined>
  /**
   * The skills the main conversation of `sessionId` has run, the latest first, each with the
   * instructions it was given: what compaction re-attaches (spec loop-and-sdk §3.9).
   */
  invokedSkills(sessionId: string): { name: string; text: string }[]
}

declare module '../../core/mod/capabilities.js' {
  interface Capabilities {
    commands: CommandsApi
  }
}
