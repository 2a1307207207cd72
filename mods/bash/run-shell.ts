import type { ChildProcess } from 'node:child_process'
import { afterPipeGrace, childProcess } from '../../hooks-runner/child-process.js'
import { mkdtempSync, readFileSync, rmSync, unlink } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CappedText } from './capped-text.js'
import { FullOutput } from './full-output.js'
import { groupRunning, killGroup } from './kill-group.js'
import { ensureGuard, guardGroup, releaseGroup } from './group-guard.js'
import type { SpareShell } from './spare-shell.js'
import { commandShell } from '../_shared/command-shell.js'

export type Env = Record<string, string | undefined>

export interface ShellRun {
  /** Each stream within the cap, head and tail kept. */
  stdout: CappedText
  stderr: CappedText
  /** Both streams uncut, as they came; saved to a file when asked to (see FullOutput.save). */
  full: FullOutput
  exitCode: number | null
  signal: NodeJS.Signals | null
  timedOut: boolean
  /** At its timeout the command was taken over (see ShellOptions.takeOver): it runs on, no longer this run's. */
  movedToBackground: boolean
  aborted: boolean
  /** The shell's directory when it exited, when it got that far. */
  cwd?: string
  /** The command left processes running in the background; they were ended. */
  leftovers: boolean
  pgid: number
}

export interface ShellOptions {
  cwd: string
  timeoutMs: number
  signal: AbortSignal
  maxOutputChars: number
  graceMs?: number
  /** Shell text run first, on the command's line (sourcing hook env files). */
  prelude?: string
  /** The session's environment (query options.env, else this process's). */
  env?: Env
  /** Where the uncut output goes once it passes `maxOutputChars`. */
  fullOutputPath?: string
  /** A bash started ahead for this command, when the session keeps one (see SpareShell). */
  spare?: SpareShell
  /**
   * Asked at the timeout, before the kill: whether someone takes the running command over (moves it
   * to the background), given it and what it printed so far. When it answers true the run ends at
   * once with `movedToBackground` and the output so far, and leaves the process to its taker.
   */
  takeOver?: (child: ChildProcess, soFar: () => string) => boolean
}

// After the shell exits, a process it started in the background may still hold the pipes open.
const DRAIN_MS = 100

/** `s` as one word to the shell, single-quoted. */
export const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`

// The files the shells' EXIT traps write their directory to: numbered, in a directory of this
// process's own (mode 0700, so no one can put a link where the next one will be written), made
// on first use and removed at exit. A random name per command cost ~0.5 ms of a Bash round.
let cwdFiles: { dir: string; next: number } | undefined
export function nextCwdFile(): string {
  if (!cwdFiles) {
    const dir = mkdtempSync(join(tmpdir(), 'modloop-cwd-'))
    cwdFiles = { dir, next: 0 }
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }))
  }
  return join(cwdFiles.dir, String(cwdFiles.next++))
}

/** The script `bash -c` runs: `prelude` first, then the command, noting the directory it ends in to `cwdFile`. */
export const shellScript = (command: string, prelude: string, cwdFile: string): string => `${prelude}trap 'pwd -P > ${shellQuote(cwdFile)} 2>/dev/null' EXIT; ${command}`

/**
 * `bash -c` (or the shell CLAUDE_CODE_SHELL picks in `env`) in a process group of its own, so a
 * timeout or an abort can end it as a tree.
 */
export function spawnShell(script: string, cwd: string, env: Env = process.env): ChildProcess {
  return childProcess().spawn(commandShell(env).shell, ['-c', script], { cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env })
}

/**
 * Runs one command to its end. On timeout (unless taken over) or abort the whole group is killed
 * (SIGTERM, a grace period, SIGKILL) and the output so far is kept. The shell's final directory is captured by an
 * EXIT trap into a temp file, so `cd` can persist into the next call.
 */
export async function runShell(command: string, options: ShellOptions): Promise<ShellRun> {
  const cwdFile = nextCwdFile()
  // On the same line as the command, so bash's line numbers in errors stay the user's. Both streams
  // share one pipe, as in Claude Code: the model reads an error where it came among the output lines.
  const script = shellScript(command, `exec 2>&1; ${options.prelude ?? ''}`, cwdFile)
  ensureGuard()
  // A spare is listed with the guard as it is handed the command; a spawned shell once it exists.
  // The spare is a bash that execs bash: another shell is spawned as it is asked for.
  const env = options.env ?? process.env
  const spare = commandShell(env).shell === 'bash' ? options.spare?.take(script, options.cwd, env) : undefined
  const child = spare ?? spawnShell(script, options.cwd, options.env)
  if (!spare && child.pid) guardGroup(child.pid)
  const stdout = new CappedText(options.maxOutputChars)
  const stderr = new CappedText(options.maxOutputChars)
  const full = new FullOutput(options.fullOutputPath, options.maxOutputChars)
  const onOut = (d: string) => { stdout.push(d); full.push(d) }
  const onErr = (d: string) => { stderr.push(d); full.push(d) }
  child.stdout!.setEncoding('utf8').on('data', onOut)
  child.stderr!.setEncoding('utf8').on('data', onErr)

  let timedOut = false
  let aborted = false
  let moved = false
  let killing: Promise<void> | undefined
  let handOver: () => void = () => {}
  const kill = () => (killing ??= child.pid ? killGroup(child.pid, options.graceMs) : Promise.resolve())
  const timer = setTimeout(() => {
    timedOut = true
    if (!aborted && options.takeOver?.(child, () => stdout.text() + stderr.text())) {
      moved = true
      handOver()
    } else void kill()
  }, options.timeoutMs)
  const onAbort = () => { aborted = true; void kill() }
  if (options.signal.aborted) onAbort()
  else options.signal.addEventListener('abort', onAbort, { once: true })

  try {
    const [exitCode, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve, reject) => {
      child.once('error', reject)
      child.once('exit', (code, sig) => {
        clearTimeout(timer)
        resolve([code, sig])
      })
      handOver = () => resolve([null, null])
    })
    if (moved) {
      // Its taker listens from here on; nothing of it came between (no I/O runs before this line).
      child.stdout!.off('data', onOut)
      child.stderr!.off('data', onErr)
      return { stdout, stderr, full, exitCode, signal, timedOut, movedToBackground: true, aborted, leftovers: false, pgid: child.pid! }
    }
    await drained(child)
    // What the command left running in the background would outlive the turn: end it too.
    const leftovers = !killing && (await groupRunning(child.pid!))
    if (leftovers) void kill()
    if (killing) await killing
    // A few bytes in a file just written: read at once, not through the thread pool.
    const cwd = readSmall(cwdFile)
    return { stdout, stderr, full, exitCode, signal, timedOut, movedToBackground: false, aborted, cwd, leftovers, pgid: child.pid! }
  } finally {
    clearTimeout(timer)
    options.signal.removeEventListener('abort', onAbort)
    // Its group was waited out (or ended) above, or is its taker's now; one that failed to start has none.
    if (child.pid && !moved) releaseGroup(child.pid)
    // Not waited for: the next command writes a file of another name (and the directory goes at exit).
    unlink(cwdFile, () => {})
  }
}

export function readSmall(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8').trim() || undefined
  } catch {
    return undefined
  }
}

async function drained(child: ChildProcess): Promise<void> {
  const streams = [child.stdout!, child.stderr!].filter((s) => !s.closed)
  if (streams.length === 0) return
  let timer: NodeJS.Timeout | undefined
  await Promise.race([
    Promise.all(streams.map((s) => new Promise((r) => s.once('close', r)))),
    new Promise((r) => { timer = afterPipeGrace(DRAIN_MS, () => r(undefined)) }),
  ])
  clearTimeout(timer)
  for (const s of streams) s.destroy()
}
