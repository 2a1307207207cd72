/** The `statusLine` setting in force: a command whose output the terminal shows under the prompt. */
export interface StatusLineSetting {
  command: string
  /** Extra columns before the text, past the two the footer is indented by. */
  padding: number
  /** Seconds between runs while nothing changes; absent, it runs only when the session changes. */
  refreshInterval?: number
  /** The settings file it came from, to name in a notice. */
  file: string
}

declare module '../../core/mod/capabilities.js' {
  interface Capabilities {
    /**
     * The `statusLine` setting of a session, by its id, chosen at session start by the mod that
     * reads the settings files (settings-env), with their other keys in the same read: the terminal
     * runs it. Without it, no custom status line.
     */
    statusLineSetting: (sessionId: string) => StatusLineSetting | undefined
  }
}
