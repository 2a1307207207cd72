import { constants } from 'node:os'

const SIGNALS = ['SIGTERM', 'SIGHUP'] as const
// Past the Bash grace period (2 s) and session.end's bound: a shutdown still running by then hangs.
const SHUTDOWN_MS = 6_000

export interface Termination {
  /** The exit code of the signal that came (128 + its number), once one did, or of `end`. */
  code(): number | undefined
  /** Ends the session as a signal does, exiting with `code` (an internal error: 1); a no-op once ending. */
  end(code: number): void
  dispose(): void
}

/**
 * SIGTERM and SIGHUP end the interactive session the way Ctrl+D does, without waiting for the
 * turn: `stop` interrupts it and ends the input, so the session closes (its tools' process
 * groups killed, its lock released, MCP servers stopped, SessionEnd run) and the terminal is
 * given back. Without these handlers node would die at once and leave all of that behind. A
 * second signal, or a shutdown that hangs, restores the terminal as it can and exits.
 */
export function onTermination(stop: () => void, restore: () => void, stdout: NodeJS.WriteStream): Termination {
  let code: number | undefined
  const force = () => {
    restore()
    process.exit(code)
  }
  const end = (exitCode: number) => {
    code = exitCode
    setTimeout(force, SHUTDOWN_MS).unref()
    stop()
  }
  const onSignal = (signal: NodeJS.Signals) => {
    if (code !== undefined) return force()
    // After SIGHUP the terminal is gone: a write to it fails, and must not crash the shutdown.
    if (signal === 'SIGHUP') stdout.on('error', () => {})
    end(128 + constants.signals[signal])
  }
  for (const s of SIGNALS) process.on(s, onSignal)
  return {
    code: () => code,
    end: (exitCode) => {
      if (code === undefined) end(exitCode)
    },
    dispose: () => {
      for (const s of SIGNALS) process.off(s, onSignal)
    },
  }
}
