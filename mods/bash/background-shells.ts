import type { ChildProcess } from 'node:child_process'
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs'
import { dirname } from 'node:path'
import { killGroup, signalGroup } from './kill-group.js'
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
}

// Unread output kept per stream between two BashOutput calls.
const UNREAD_CAP = 1_000_000

export interface OutputFileLimits {
  /** The saved copy stops here: a shell printing without end (`yes`, a chatty server) must not fill the disk. */
  fileChars: number
  /** Past this much waiting to be written, output is left out of the file rather than held in memory. */
  backlogChars: number
}
const FILE_LIMITS: OutputFileLimits = { fileChars: 64 * 1024 * 1024, backlogChars: 8 * 1024 * 1024 }

/** A shell's output file: capped, and never holding more than the backlog in memory; what is left out is noted in it. */
class OutputFile {
  private written = 0
  private skipped = 0
  private full = false

  constructor(private readonly stream: WriteStream, private readonly limits: OutputFileLimits) {}

  write(chunk: string): void {
    if (this.full) return
    if (this.written + chunk.length > this.limits.fileChars) {
      this.full = true
      this.noteSkipped()
      this.stream.write(`\n[output past ${this.limits.fileChars} characters is not saved]\n`)
      return
    }
    if (this.stream.writableLength > this.limits.backlogChars) {
      this.skipped += chunk.length
      return
    }
    this.noteSkipped()
    this.stream.write(chunk)
    this.written += chunk.length
  }

  end(): void {
    this.noteSkipped()
    this.stream.end()
  }

  /** Says, where it happened, how much was left out while the disk fell behind. */
  private noteSkipped(): void {
    if (this.skipped === 0) return
    this.stream.write(`\n[${this.skipped} characters are not saved here: the disk fell behind]\n`)
    this.skipped = 0
  }

  onError(handler: () => void): void {
    this.stream.on('error', handler)
  }
}

/** One session's background shells: `bash_1`, `bash_2`, … until the session ends. */
export class BackgroundShells {
  private readonly shells = new Map<string, BackgroundShell>()
  private counter = 0

  constructor(private readonly env: () => Env = () => process.env, private readonly fileLimits: OutputFileLimits = FILE_LIMITS) {}

  /**
   * `prelude` runs first on the same line (sourcing hook env files); `command` is what is reported.
   * The whole output also goes to `outputPath` as it comes: what BashOutput hands over is capped,
   * and what nobody read in time is dropped from memory.
   */
  start(command: string, cwd: string, prelude = '', outputPath?: string): BackgroundShell {
    const child: ChildProcess = spawnShell(`${prelude}${command}`, cwd, this.env())
    const stream = outputPath ? openOutput(outputPath) : undefined
    const file = stream ? new OutputFile(stream, this.fileLimits) : undefined
    const shell: BackgroundShell = {
      id: `bash_${++this.counter}`, command, pgid: child.pid ?? -1, status: 'running', exitCode: null, startedAt: Date.now(),
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
          resolve()
        })
      }),
    }
    // 'close' comes after both streams ended, so the file has all of the output.
    if (file) child.once('close', () => file.end())
    file?.onError(() => { delete shell.outputPath })
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
    if (shell.pgid > 0) await killGroup(shell.pgid, graceMs)
    await shell.exited
  }

  /** Ends every shell still running (its group may outlive the shell itself). */
  async killAll(graceMs?: number): Promise<void> {
    await Promise.all([...this.shells.values()].filter((s) => s.pgid > 0 && (s.status === 'running' || signalGroup(s.pgid, 0))).map((s) => this.kill(s, graceMs)))
  }

  /** Last resort when the process exits: no time to wait, so SIGKILL at once. */
  killAllNow(): void {
    for (const s of this.shells.values()) if (s.pgid > 0) signalGroup(s.pgid, 'SIGKILL')
  }
}

/** A file for a shell's output; a failure to create it (read-only disk) only loses the copy. */
function openOutput(path: string): WriteStream | undefined {
  try {
    mkdirSync(dirname(path), { recursive: true })
    return createWriteStream(path, { encoding: 'utf8' })
  } catch {
    return undefined
  }
}
