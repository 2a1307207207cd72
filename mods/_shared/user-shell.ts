import type { TextBlockParam } from '@anthropic-ai/sdk/resources/messages'

/** A command the person ran themselves (the terminal's `!` mode), and what the model is told of it. */
export interface UserShellRun {
  /** The user message's two text blocks: `<bash-input>` and `<bash-stdout>…<bash-stderr>`. */
  blocks: TextBlockParam[]
  /** What the command printed (both streams as they came), for the terminal to show. */
  output: string
  /** Stopped by the signal: nothing is told to the model. */
  aborted: boolean
}

declare module '../../core/mod/capabilities.js' {
  interface Capabilities {
    /**
     * Runs a command the person typed in the session's shell (its directory, `cd` kept, env files),
     * with no permission check and no hooks: it is their own command. Provided by the mod that runs
     * the shell; undefined for a session it does not know.
     */
    userShell: (sessionId: string) => ((command: string, signal: AbortSignal) => Promise<UserShellRun>) | undefined
  }
}

export {}
