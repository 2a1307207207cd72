import { resolve } from 'node:path'
import type { CommandRun, Values } from '../command.js'
import { sessionStoreSetting } from '../session-store.js'
import { usageError } from '../usage-error.js'
import { Worker } from './worker.js'

const STOP_SIGNALS = ['SIGTERM', 'SIGINT'] as const

/**
 * `modloop worker --queue URL`: takes jobs from the queue and runs each as a session until stopped.
 * The first SIGTERM or SIGINT stops it gracefully: no new jobs, running ones get `--drain-seconds`
 * (default 30) to finish, then are handed back with their sessions stored for the next worker; a
 * second signal hands them back at once.
 */
export const worker: CommandRun = async ({ values, io }) => {
  const queueUrl = str(values, 'queue')
  if (!queueUrl) throw usageError('--queue URL is needed: the Postgres to take jobs from')
  const cwd = resolve(io.cwd)
  const store = await sessionStoreSetting(values, cwd)
  const config = str(values, 'config')
  const log = (line: string) => io.stderr.write(`modloop worker: ${line}\n`)
  const w = new Worker({
    queueUrl, ...(store ? { storeUrl: store.url } : {}), concurrency: int(values, 'concurrency', 1), env: io.env, log,
    ...(config ? { config: resolve(cwd, config) } : {}),
    pollMs: seconds(values, 'poll-seconds', 2), graceSeconds: seconds(values, 'grace-seconds', 3) / 1000, reapMs: seconds(values, 'reap-seconds', 2),
  })
  await w.start()
  log(`${w.name} takes jobs (concurrency ${int(values, 'concurrency', 1)})`)
  const drainMs = seconds(values, 'drain-seconds', 30)
  await new Promise<void>((done) => {
    let signals = 0
    const onSignal = (signal: NodeJS.Signals) => {
      // Told apart when the signal comes: by the time the first stop ends, a second may have come too.
      const first = ++signals === 1
      log(first ? `${signal}: finishing the running jobs (up to ${drainMs / 1000} s), then handing back what is left` : `${signal}: handing the running jobs back now`)
      void w.stop(first ? drainMs : 0).then(() => {
        if (first) {
          for (const s of STOP_SIGNALS) process.off(s, onSignal)
          done()
        }
      })
    }
    for (const s of STOP_SIGNALS) process.on(s, onSignal)
  })
  log(`${w.name} stopped: ${w.done.completed} completed, ${w.done.failed} failed, ${w.done.handedBack} handed back`)
  return 0
}

function str(values: Values, key: string): string | undefined {
  const v = values[key]
  return typeof v === 'string' ? v : undefined
}

function int(values: Values, key: string, fallback: number): number {
  const raw = values[key]
  if (raw === undefined) return fallback
  const n = Number(raw)
  if (!Number.isInteger(n) || n < 1) throw usageError(`--${key} takes a whole number of at least 1, not "${String(raw)}"`)
  return n
}

/** A duration flag in seconds, answered in ms. */
function seconds(values: Values, key: string, fallback: number): number {
  const raw = values[key]
  if (raw === undefined) return fallback * 1000
  const n = Number(raw)
  if (!Number.isFinite(n) || n < 0) throw usageError(`--${key} takes a number of seconds, not "${String(raw)}"`)
  return n * 1000
}
