import type { ChildProcess } from 'node:child_process'
import { OutputFile, type OutputFileLimits } from './full-output.js'
import { groupRunning, killGroup, signalGroup } from './kill-group.js'
import { ensureGuard, guardGroup, releaseGroup } from './group-guard.js'
import { spawnShell, type Env } from './run-shell.js'

export type ShellStatus = 'running' | 'completed' | 'failed' | 'killed'

/** Output not yet read by BashOutput; the oldest part goes first when a shell talks a lot. */
export class Unread {
  private chunks: string[] = []
  private size = 0
  dropped = 0

  constructor(private readonly cap: number) {}

  push(chunk: string): void {
    this.chunks.push(chunk)
    this.size += chunk.length
    while (this.size > this.cap && this.chunks.length > 1) {
      const old = this.chunks.shift()!
      this.size -= old.length
      this.dropped += old.length
    }
  }

  take(): { text: string; dropped: number } {
    const out = { text: this.chunks.join(''), dropped: this.dropped }
    this.chunks = []
    this.size = 0
    this.dropped = 0
    return out
  }
}

export interface BackgroundShell {
  id: string
  command: string
  pgid: number
  status: ShellStatus
  exitCode: number | null
  startedAt: number
  stdout: Unread
  stderr: Unread
  /** Where the whole output (both streams as they came) is written; unset when it cannot be. */
  outputPath?: string
  exited: Promise<void>
  /**
   * Nothing of its group ran any more when its shell exited. Its id is then never signalled
   * again: pids come back round (32,768 on many systems), and by a session's end it may be
   * someone else's group.
   */
  groupGone?: boolean
}

// Unread output kept per stream between two BashOutput calls.
const UNREAD_CAP = 1_000_000

/** One session's background shells: `bash_1`, `bash_2`, … until the session ends. */
export class BackgroundShells {
  private readonly shells = new Map<string, BackgroundShell>()
  private counter = 0

  constructor(private readonly env: () => Env = () => process.env, private readonly fileLimits?: OutputFileLimits) {}

  /**
   * `prelude` runs first on the same line (sourcing hook env files); `command` is what is reported.
   * `output` is the output file's path, or makes it from the shell's id.
   * The whole output also goes to `outputPath` as it comes: what BashOutput hands over is capped,
   * and what nobody read in time is dropped from memory.
   */
  start(command: string, cwd: string, prelude = '', output?: string | ((id: string) => string)): BackgroundShell {
    ensureGuard()
    // One pipe for both streams, as a foreground command has (see runShell): the output file reads in the order it was written.
    const child: ChildProcess = spawnShell(`exec 2>&1; ${prelude}${command}`, cwd, this.env())
    return this.track(child, command, output, '')
  }

  /**
   * Takes over a foreground command still running past its timeout (its streams already decode as
   * UTF-8): from now on it is a background shell like the others. `soFar` is what it printed
   * before, put first in the output file and left unread for BashOutput (the tool's result shows it).
   */
  adopt(child: ChildProcess, command: string, soFar: string, output?: string | ((id: string) => string)): BackgroundShell {
    return this.track(child, command, output, soFar)
  }

  private track(child: ChildProcess, command: string, output: string | ((id: string) => string) | undefined, soFar: string): BackgroundShell {
    const id = `bash_${++this.counter}`
    const outputPath = typeof output === 'function' ? output(id) : output
    const file = outputPath ? OutputFile.open(outputPath, this.fileLimits) : undefined
    if (soFar) file?.write(soFar)
    const shell: BackgroundShell = {
      id, command, pgid: child.pid ?? -1, status: 'running', exitCode: null, startedAt: Date.now(),
      stdout: new Unread(UNREAD_CAP), stderr: new Unread(UNREAD_CAP), ...(file ? { outputPath } : {}),
      exited: new Promise((resolve) => {
        child.once('error', (err) => {
          shell.status = 'failed'
          shell.stderr.push(`${err.message}\n`)
          resolve()
        })
        child.once('exit', (code) => {
          if (shell.status === 'running') shell.status = code === 0 ? 'completed' : 'failed'
          shell.exitCode = code
          // Off the guard's list at once: what it left running would end unseen, and a listed id
          // that comes round again names someone else's group (kill() and the session's end still end it).
          releaseGroup(shell.pgid)
          void groupRunning(shell.pgid).then((running) => { if (!running) shell.groupGone = true })
          resolve()
        })
      }),
    }
    guardGroup(shell.pgid)
    // 'close' comes after both streams ended, so the file has all of the output.
    if (file) child.once('close', () => void file.end().then((whole) => { if (!whole) delete shell.outputPath }))
    child.stdout!.setEncoding('utf8').on('data', (d: string) => { shell.stdout.push(d); file?.write(d) })
    child.stderr!.setEncoding('utf8').on('data', (d: string) => { shell.stderr.push(d); file?.write(d) })
    this.shells.set(shell.id, shell)
    return shell
  }

  get(id: string): BackgroundShell | undefined {
    return this.shells.get(id)
  }

  ids(): string[] {
    return [...this.shells.keys()]
  }

  /** Ends one shell's whole process group; resolves when it is gone. */
  async kill(shell: BackgroundShell, graceMs?: number): Promise<void> {
    if (shell.status === 'running') shell.status = 'killed'
    if (shell.pgid > 0 && !shell.groupGone) await killGroup(shell.pgid, graceMs)
    // Its exit took the group off the guard's list already.
    await shell.exited
  }

  /** Ends every shell still running (its group may outlive the shell itself). */
  async killAll(graceMs?: number): Promise<void> {
    await Promise.all([...this.shells.values()].filter((s) => s.pgid > 0 && !s.groupGone && (s.status === 'running' || signalGroup(s.pgid, 0))).map((s) => this.kill(s, graceMs)))
  }

  /** Last resort when the process exits: no time to wait, so SIGKILL at once. */
  killAllNow(): void {
    for (const s of this.shells.values()) {
      if (s.pgid <= 0 || s.groupGone) continue
      signalGroup(s.pgid, 'SIGKILL')
      // Ended already: the guard need not wait out a second's grace for it after this process is gone.
      releaseGroup(s.pgid)
    }
  }
}
