import type { ChildProcess } from 'node:child_process'
import { afterPipeGrace, childProcess } from './child-process.js'
import { describeCause } from './errors.js'
import { MAX_TIMEOUT_MS } from './events.js'
import { killGroup } from './kill-group.js'
import type { SpareSh } from './spare-sh.js'

export interface SpawnSpec {
  file: string
  args: readonly string[]
  cwd: string
  env: NodeJS.ProcessEnv
  /** Written to stdin, then EOF. */
  stdin: string
  timeoutMs: number
  signal?: AbortSignal
  killGraceMs: number
  /** After the process exits, how long to wait for its pipes to close before giving up on them. */
  pipeGraceMs: number
  /** Watch stdout for a leading `{"async": true}` object and return early when it appears (§4.5). */
  detectAsync?: boolean
  /** A shell started ahead for a shell-form hook, when the session keeps one (see SpareSh). */
  spare?: SpareSh
}

export interface ProcessRun {
  status: 'exited' | 'timeout' | 'cancelled' | 'launch_error'
  exitCode: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
  pid?: number
  durationMs: number
  launchError?: string
  /** Set when stdout ran past the cap: `stdout` holds its first `kept` characters of `total`. */
  stdoutCut?: { kept: number; total: number }
  /** The hook exited, but a process it left running still held its stdout or stderr after the pipe grace. */
  pipesHeld?: true
  /** Set when the hook declared itself async: the process goes on, `later` settles when it ends. */
  detached?: { asyncTimeoutMs?: number; later: Promise<ProcessRun> }
}

/**
 * A decision is read from stdout whole, so its cap is generous: a deny of several MB still parses.
 * Past it the text is cut and the run says so (`stdoutCut`); the reader then fails closed where
 * the event can block. stderr only ever becomes a message, so it keeps 1 MiB.
 */
export const MAX_STDOUT_CHARS = 16 * 1024 * 1024
const MAX_STDERR_CHARS = 1024 * 1024
const ASYNC_PROBE_CHARS = 4096

/**
 * Runs one hook process in a session and process group of its own (no controlling terminal), so a
 * timeout or an abort ends it as a tree. Stdin errors (EPIPE from a hook that never reads) are
 * ignored. The run ends at exit, plus a bounded wait for the pipes: a background grandchild that
 * keeps stdout open does not hold the caller.
 */
export function spawnHook(spec: SpawnSpec): Promise<ProcessRun> {
  const started = performance.now()
  let child: ChildProcess
  try {
    child = spec.spare?.take(spec.file, spec.args, spec.cwd, spec.env) ?? childProcess().spawn(spec.file, spec.args, { cwd: spec.cwd, env: spec.env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] })
  } catch (err) {
    return Promise.resolve(launchFailure(err, started))
  }
  let stdout = ''
  let stderr = ''
  let status: ProcessRun['status'] = 'exited'
  let timeoutMs = spec.timeoutMs
  let killing: Promise<void> | undefined
  const kill = (why: 'timeout' | 'cancelled') => {
    if (status === 'exited') status = why
    killing ??= child.pid ? killGroup(child.pid, spec.killGraceMs) : Promise.resolve()
  }
  let timer = setTimeout(() => kill('timeout'), timeoutMs)
  const onAbort = () => kill('cancelled')
  if (spec.signal?.aborted) queueMicrotask(onAbort)
  else spec.signal?.addEventListener('abort', onAbort, { once: true })

  let early: ((run: ProcessRun) => void) | undefined
  let probing = spec.detectAsync === true
  let stdoutTotal = 0
  child.stdout!.setEncoding('utf8').on('data', (d: string) => {
    stdoutTotal += d.length
    if (stdout.length < MAX_STDOUT_CHARS) stdout += d.length <= MAX_STDOUT_CHARS - stdout.length ? d : d.slice(0, MAX_STDOUT_CHARS - stdout.length)
    if (probing) probeAsync()
  })
  child.stderr!.setEncoding('utf8').on('data', (d: string) => {
    if (stderr.length < MAX_STDERR_CHARS) stderr += d
  })
  const cut = () => (stdoutTotal > stdout.length ? { stdoutCut: { kept: stdout.length, total: stdoutTotal } } : {})
  child.stdin!.on('error', () => {})
  child.stdin!.end(spec.stdin)

  function probeAsync() {
    const t = stdout.trimStart().replace(/^\uFEFF/, '')
    if (t === '') return
    if (!t.startsWith('{') || t.length > ASYNC_PROBE_CHARS) return void (probing = false)
    if (!t.includes('}')) return
    let value: unknown
    try {
      value = JSON.parse(t.trimEnd())
    } catch {
      return
    }
    probing = false
    const v = value as { async?: unknown; asyncTimeout?: unknown }
    if (v.async !== true || !early) return
    const asyncTimeoutMs = typeof v.asyncTimeout === 'number' && v.asyncTimeout > 0 ? Math.min(v.asyncTimeout, MAX_TIMEOUT_MS) : undefined
    if (asyncTimeoutMs !== undefined) {
      clearTimeout(timer)
      timeoutMs = asyncTimeoutMs
      timer = setTimeout(() => kill('timeout'), timeoutMs)
    }
    const resolveEarly = early
    early = undefined
    stdout = ''
    stdoutTotal = 0
    resolveEarly({ status: 'exited', exitCode: 0, signal: null, stdout: t, stderr: '', pid: child.pid, durationMs: performance.now() - started, detached: { asyncTimeoutMs, later: finished } })
  }

  const finished = new Promise<ProcessRun>((resolve) => {
    let exitCode: number | null = null
    let exitSignal: NodeJS.Signals | null = null
    let done = false
    let held = false
    const finish = async (launchError?: unknown) => {
      if (done) return
      done = true
      clearTimeout(timer)
      spec.signal?.removeEventListener('abort', onAbort)
      if (killing) await killing
      child.stdout!.destroy()
      child.stderr!.destroy()
      if (launchError !== undefined) return resolve({ ...launchFailure(launchError, started), stdout, stderr })
      resolve({ status, exitCode, signal: exitSignal, stdout, stderr, pid: child.pid, durationMs: performance.now() - started, ...cut(), ...(held ? { pipesHeld: true as const } : {}) })
    }
    // Only a failed spawn ends the run here; other errors of a started child are followed by 'exit'.
    child.once('error', (err) => {
      if (child.pid === undefined) void finish(err)
    })
    child.once('exit', (code, sig) => {
      exitCode = code
      exitSignal = sig
      const grace = afterPipeGrace(spec.pipeGraceMs, () => {
        held = status === 'exited' && !done
        void finish()
      })
      child.once('close', () => {
        clearTimeout(grace)
        void finish()
      })
    })
  })
  return new Promise<ProcessRun>((resolve) => {
    early = resolve
    void finished.then((run) => {
      if (early) {
        early = undefined
        resolve(run)
      }
    })
  })
}

function launchFailure(err: unknown, started: number): ProcessRun {
  return { status: 'launch_error', exitCode: null, signal: null, stdout: '', stderr: '', durationMs: performance.now() - started, launchError: describeCause(err) }
}
