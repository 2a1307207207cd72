import { setTrust } from '../permissions/trust-store.js'
import { onTermination } from './signals.js'
import type { TerminalIo } from './surface.js'
import { openTerminal } from './terminal.js'
import { needsTrust } from './trust-check.js'

/**
 * The first run in a folder with project hooks, mods or widening permissions asks before any of them loads. It runs
 * before the distribution (and so before any replacement surface) loads: the built-in terminal
 * asks it. Answers whether the session may go on, or the exit code of a signal (SIGTERM, SIGHUP)
 * that came while it asked: the question is then answered "no" and the terminal given back.
 */
export async function askTrust(io: TerminalIo, cwd: string): Promise<boolean | { signalExit: number }> {
  const asking = await needsTrust(cwd, io.env)
  if (!asking) return true
  const terminal = openTerminal(io)
  const { app, view, paint } = terminal
  const termination = onTermination(() => app.cancelAll(), () => terminal.restore(), io.stdout)
  try {
    const { value } = await app.choose([
      `Do you trust the files in ${cwd}?`,
      `It has ${asking.reasons.join('; ')}: code that runs on your machine, or calls let run unasked, once the session starts.`,
    ], [
      { label: 'Yes, trust this folder', value: true },
      { label: 'No, exit', value: false },
    ], false)
    const signalled = () => termination.code()
    if (signalled() !== undefined) return { signalExit: signalled()! }
    if (value) await setTrust(asking.store, cwd, true)
    else await view.print(paint.yellow('Not trusted: nothing of this folder was loaded. Run modloop again to decide anew, or `modloop trust`.'))
    // A signal while the answer was being recorded still ends the run.
    const late = signalled()
    return late === undefined ? value : { signalExit: late }
  } finally {
    termination.dispose()
    await terminal.close({ erase: true })
  }
}
