import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'

export interface OutputFileLimits {
  /** The saved copy stops here: a command printing without end (`yes`, a chatty server) must not fill the disk. */
  fileChars: number
  /** Past this much waiting to be written, output is left out of the file rather than held in memory. */
  backlogChars: number
}
const FILE_LIMITS: OutputFileLimits = { fileChars: 64 * 1024 * 1024, backlogChars: 8 * 1024 * 1024 }

/**
 * A command's output file, written as the output comes: capped, and never holding more than the
 * backlog in memory while the disk catches up; what is left out is noted in the file itself.
 * A failure (a read-only or full disk) only loses the copy: the command runs on.
 */
export class OutputFile {
  private written = 0
  private skipped = 0
  private full = false
  private broken = false

  private constructor(private readonly stream: WriteStream, private readonly limits: OutputFileLimits) {
    stream.on('error', () => { this.broken = true })
  }

  static open(path: string, limits: OutputFileLimits = FILE_LIMITS): OutputFile | undefined {
    try {
      mkdirSync(dirname(path), { recursive: true })
      return new OutputFile(createWriteStream(path, { encoding: 'utf8' }), limits)
    } catch {
      return undefined
    }
  }

  /** How many characters of output the file holds (its notes aside). */
  get kept(): number {
    return this.written
  }

  /** False once a write failed: the file is not whole. */
  get ok(): boolean {
    return !this.broken
  }

  write(chunk: string): void {
    if (this.full || this.broken) return
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

  /** Ends the file; answers whether all of it was written. */
  end(): Promise<boolean> {
    this.noteSkipped()
    return new Promise((resolve) => {
      this.stream.once('error', () => resolve(false))
      this.stream.end(() => resolve(this.ok))
    })
  }

  /** Says, where it happened, how much was left out while the disk fell behind. */
  private noteSkipped(): void {
    if (this.skipped === 0) return
    this.stream.write(`\n[${this.skipped} characters are not saved here: the disk fell behind]\n`)
    this.skipped = 0
  }
}

/**
 * A command's whole output (stdout and stderr as they came), for when what the model reads is
 * cut: held in memory up to `cap` characters, then written on to `path` (an OutputFile) as it
 * arrives, so a long output never sits in memory whole.
 */
export class FullOutput {
  private pending: string[] = []
  private size = 0
  private file: OutputFile | undefined
  private failed = false

  constructor(private readonly path: string | undefined, private readonly cap: number, private readonly limits?: OutputFileLimits) {}

  push(chunk: string): void {
    if (!this.path || this.failed) return
    if (this.file) {
      this.file.write(chunk)
      return
    }
    this.pending.push(chunk)
    this.size += chunk.length
    if (this.size > this.cap) this.open()
  }

  /** How many characters of output the saved copy holds: less than came when the file's cap was reached or the disk fell behind. */
  get kept(): number {
    return this.file ? this.file.kept : this.size
  }

  /** Saves the output (if `needed` or already spilled) and gives its path; undefined when not saved. */
  async save(needed: boolean): Promise<string | undefined> {
    if (!this.path || this.failed) return undefined
    if (this.file) return (await this.file.end()) ? this.path : undefined
    if (!needed) return undefined
    try {
      mkdirSync(dirname(this.path), { recursive: true })
      await writeFile(this.path, this.pending.join(''), 'utf8')
      return this.path
    } catch {
      return undefined
    }
  }

  private open(): void {
    this.file = OutputFile.open(this.path!, this.limits)
    if (!this.file) this.failed = true
    else this.file.write(this.pending.join(''))
    this.pending = []
  }
}
