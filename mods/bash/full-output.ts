import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'

/**
 * A command's whole output (stdout and stderr as they came), for when what the model reads is
 * cut: held in memory up to `cap` characters, then written on to `path` as it arrives, so a long
 * output never sits in memory whole.
 */
export class FullOutput {
  private pending: string[] = []
  private size = 0
  private file: WriteStream | undefined
  private failed: Error | undefined

  constructor(private readonly path: string | undefined, private readonly cap: number) {}

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

  /** Saves the output (if `needed` or already spilled) and gives its path; undefined when not saved. */
  async save(needed: boolean): Promise<string | undefined> {
    if (!this.path || this.failed) return undefined
    try {
      if (this.file) {
        const file = this.file
        await new Promise<void>((resolve, reject) => {
          file.once('error', reject)
          file.end(resolve)
        })
      } else if (needed) {
        mkdirSync(dirname(this.path), { recursive: true })
        await writeFile(this.path, this.pending.join(''), 'utf8')
      } else {
        return undefined
      }
    } catch {
      return undefined
    }
    return this.failed ? undefined : this.path
  }

  private open(): void {
    try {
      mkdirSync(dirname(this.path!), { recursive: true })
      this.file = createWriteStream(this.path!, { encoding: 'utf8' })
      // A write that fails (disk full) only loses the saved copy; the command runs on.
      this.file.on('error', (err) => { this.failed = err })
      this.file.write(this.pending.join(''))
    } catch (err) {
      this.failed = err as Error
    }
    this.pending = []
  }
}
