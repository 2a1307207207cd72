import { ensureGuard, guardGroup, releaseGroup } from '../bash/group-guard.js'
import { killGroup } from '../bash/kill-group.js'
import { OutputFile } from '../bash/full-output.js'
import { spawnShell, type Env } from '../bash/run-shell.js'
import { LineBuffer } from './line-buffer.js'

/** How a watched command ended: its exit code, or null when a signal ended it; `error` when it never started. */
export interface WatchEnd {
  code: number | null
  error?: string
}

/**
 * A watched command: `bash -c` in a process group of its own (as Bash runs one), both streams
 * written to its output file as they come, and its stdout cut into lines. Lines that arrive
 * within `batchMs` of the first of them go out together, so what one event printed over several
 * lines reaches the model as one batch. stderr only goes to the file: it is no event.
 */
export class Watch {
  readonly ended: Promise<WatchEnd>
  private readonly pgid: number
  private readonly lines: LineBuffer
  private batch: string[] = []
  private timer: NodeJS.Timeout | undefined
  /** Killed: what it printed as it was ended is in the file, but no event of the model's any more. */
  private cut = false

  /** `keepChars`: how much of one line is held for events (the file gets all of it). */
  constructor(script: string, cwd: string, env: Env, outputFile: string, private readonly batchMs: number, keepChars: number, private readonly onBatch: (lines: string[]) => void) {
    this.lines = new LineBuffer(keepChars)
    ensureGuard()
    const child = spawnShell(script, cwd, env)
    this.pgid = child.pid ?? -1
    guardGroup(this.pgid)
    const file = OutputFile.open(outputFile)
    child.stdout!.setEncoding('utf8').on('data', (d: string) => { file?.write(d); this.take(d) })
    child.stderr!.setEncoding('utf8').on('data', (d: string) => file?.write(d))
    this.ended = new Promise((resolve) => {
      child.once('error', (err) => {
        file?.write(`${err.message}\n`)
        resolve({ code: null, error: err.message })
      })
      // `close`, not `exit`: every line the command printed has been read by then.
      child.once('close', async (code) => {
        const rest = this.lines.rest().replace(/\r$/, '')
        if (rest !== '') this.batch.push(rest)
        this.flush()
        // What it left running in the background ends with the watch, as Bash's leftovers end with
        // their command: nothing else would stop it once its task is over.
        if (this.pgid > 0) await killGroup(this.pgid, 1_000)
        releaseGroup(this.pgid)
        void file?.end()
        resolve({ code })
      })
    })
  }

  private take(chunk: string): void {
    const whole = this.lines.take(chunk).filter((l) => l !== '')
    if (whole.length === 0) return
    this.batch.push(...whole)
    this.timer ??= setTimeout(() => this.flush(), this.batchMs)
  }

  private flush(): void {
    clearTimeout(this.timer)
    this.timer = undefined
    if (this.batch.length === 0 || this.cut) return
    const lines = this.batch
    this.batch = []
    this.onBatch(lines)
  }

  /** Sends what is waiting in the batch now, and no event after: the watch is being ended. */
  hush(): void {
    this.flush()
    this.cut = true
  }

  /** Ends the command's whole process group (SIGTERM, then SIGKILL); resolves once it is gone. */
  async kill(): Promise<void> {
    this.cut = true
    if (this.pgid > 0) await killGroup(this.pgid, 1_000)
    await this.ended
  }
}
