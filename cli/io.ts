/** Where a command reads and writes; tests pass their own to run the CLI in-process. */
export interface Io {
  stdout: { write(text: string): unknown }
  stderr: { write(text: string): unknown }
  /** Read only by commands that take input on stdin (a headless prompt). */
  stdin?: NodeJS.ReadableStream
  cwd: string
  env: Record<string, string | undefined>
  /** The process is the CLI's own (not a test's or an embedder's): process-wide settings are its to make. */
  ownsProcess?: boolean
}

export function processIo(): Io {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    // process.stdin builds its stream on first access (~5 ms for a file or pipe): a prompt given
    // on the command line never needs it.
    get stdin() {
      return process.stdin
    },
    cwd: process.cwd(),
    env: process.env,
    ownsProcess: true,
  }
}
