import { writeSync } from 'node:fs'
import { runningHandler } from '../core/bus/handler-scope.js'
import { describeError } from '../core/errors.js'

interface GuardIo {
  stderr: { write(t: string): unknown }
}

/**
 * Where the CLI owns the process, an error no one awaited — a mod's rejected promise, a throw in
 * its timer — must not kill the run with a raw stack, a stale lock and a tool call left
 * unanswered. One the handler scope attributes to a mod is reported (MODLOOP_ERR_STRAY, naming
 * the mod and the event its handler was running) and the run goes on: the mod's own work failed,
 * core's state did not. One that came from modloop itself is reported and ends the run through
 * `stop`, so it still closes with a result, a whole transcript and a released lock.
 *
 * A reader of stdout or stderr that went away (`| head`, a parent that stopped reading) ends the
 * run through `stop` too, quietly: every write to a broken pipe fails again, and reporting that
 * failure on the same pipe would loop for ever.
 *
 * If the process drains before the command finished (a promise nothing will ever settle), it
 * says so and exits non-zero rather than 0 with nothing printed.
 *
 * Returns the disposer, called once the command has finished.
 */
export function guardProcess(io: GuardIo, stop: (err: Error) => void): () => void {
  let outputGone = false
  const report = (text: string) => {
    if (!outputGone) io.stderr.write(text)
  }
  const onStray = (kind: string) => (err: unknown) => {
    const by = runningHandler()
    if (by) {
      report(`modloop: MODLOOP_ERR_STRAY: ${by.mod}: ${kind} from its ${by.event} ${by.event === 'register' ? 'function' : 'handler'}, not awaited by it (the run goes on): ${describeError(err)}\n`)
      return
    }
    report(`modloop: MODLOOP_ERR_STRAY: ${kind} inside modloop; ending the run: ${err instanceof Error && err.stack ? err.stack : describeError(err)}\n`)
    stop(new Error(`internal error (${kind}): ${describeError(err)}`))
  }
  const onRejection = onStray('an unhandled rejection')
  const onException = onStray('an uncaught exception')
  const onOutputError = (err: Error) => {
    if (outputGone) return
    outputGone = true
    stop(new Error(`the output was closed: ${describeError(err)}`))
  }
  const onExit = () => {
    process.exitCode = 1
    try {
      if (!outputGone) writeSync(2, 'modloop: MODLOOP_ERR_STALLED: the run stopped before it finished: nothing was left running (a promise no one will settle)\n')
    } catch {
      // stderr is gone: the exit code still says it.
    }
  }
  process.on('unhandledRejection', onRejection)
  process.on('uncaughtException', onException)
  process.stdout.on('error', onOutputError)
  process.stderr.on('error', onOutputError)
  process.on('exit', onExit)
  return () => {
    process.off('unhandledRejection', onRejection)
    process.off('uncaughtException', onException)
    process.stdout.off('error', onOutputError)
    process.stderr.off('error', onOutputError)
    process.off('exit', onExit)
  }
}
