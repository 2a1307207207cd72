/**
 * What an editor connected over the Agent Client Protocol offers a session: its buffers (read and
 * write a text file, unsaved changes included) and its terminals. Each is present only when the
 * editor advertised it; the front end (cli/acp) implements them over the connection.
 */
export interface Editor {
  readTextFile?(path: string): Promise<string>
  writeTextFile?(path: string, content: string): Promise<void>
  /** Runs a shell command in an editor terminal, shown beside the tool call `toolUseId`. */
  runInTerminal?(run: TerminalRun): Promise<TerminalOutcome>
}

export interface TerminalRun {
  toolUseId: string
  /** A script for `bash -c`. */
  command: string
  cwd: string
  /** Variables to set over the terminal's own environment. */
  env: { name: string; value: string }[]
  signal: AbortSignal
  timeoutMs: number
  outputByteLimit: number
}

export interface TerminalOutcome {
  output: string
  truncated: boolean
  exitCode: number | null
  signal: string | null
  timedOut: boolean
  aborted: boolean
}
