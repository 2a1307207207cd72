import { closeSync, fstatSync, ftruncateSync, fsyncSync, mkdirSync, openSync, readSync, writeSync } from 'node:fs'
import { dirname } from 'node:path'
import type { MessageEntry } from './store/entry.js'

// Enough to find the parent of a response retracted within the last step.
const REMEMBERED_PARENTS = 64

/**
 * Appends lines to one transcript file. Each line is written with one synchronous write on an fd
 * kept open, before the message it records reaches the caller: a process killed at any moment
 * loses at most the line it was writing, and the cost per line does not grow with the file.
 */
export class TranscriptWriter {
  private fd: number | undefined
  private last: string | null
  private readonly parents = new Map<string, string | null>()
  private readonly fsync: boolean
  private readonly copy: ((text: string) => void) | undefined

  /** `copy` gets every text written, after the local write: the session's journal when its store keeps it elsewhere too. */
  constructor(readonly path: string, options: { after?: string | null; fsync?: boolean; copy?: (text: string) => void } = {}) {
    this.last = options.after ?? null
    this.fsync = options.fsync ?? false
    this.copy = options.copy
  }

  /** The uuid the next line hangs from. */
  get leaf(): string | null {
    return this.last
  }

  /**
   * Links a line to the one before it and writes it. A line that supersedes earlier ones
   * (a retracted response) hangs from their parent instead, so they fall off the chain.
   */
  append(line: MessageEntry, supersedes?: readonly string[]): void {
    const parent = supersedes?.length && this.parents.has(supersedes[0]!) ? this.parents.get(supersedes[0]!)! : this.last
    this.write(`${JSON.stringify({ ...line, parentUuid: parent })}\n`)
    this.remember(line.uuid, parent)
    this.last = line.uuid
  }

  /** Writes lines that are already linked (a fork's copied history) in one write. */
  appendLinked(lines: readonly { uuid: string; parentUuid: string | null }[]): void {
    if (lines.length === 0) return
    this.write(lines.map((l) => `${JSON.stringify(l)}\n`).join(''))
    const lastLine = lines.at(-1)!
    this.last = lastLine.uuid
  }

  /** Writes a line that stands outside the chain (a session title): the next message still hangs from the last one. */
  appendDetached(line: Record<string, unknown>): void {
    this.write(`${JSON.stringify(line)}\n`)
  }

  close(): void {
    if (this.fd === undefined) return
    closeSync(this.fd)
    this.fd = undefined
  }

  private write(text: string): void {
    const fd = this.open()
    const bytes = Buffer.from(text, 'utf8')
    for (let off = 0; off < bytes.length;) off += writeSync(fd, bytes, off, bytes.length - off)
    if (this.fsync) fsyncSync(fd)
    this.copy?.(text)
  }

  private open(): number {
    if (this.fd !== undefined) return this.fd
    mkdirSync(dirname(this.path), { recursive: true })
    const fd = openSync(this.path, 'a+')
    dropTornTail(fd)
    this.fd = fd
    return fd
  }

  private remember(uuid: string, parent: string | null): void {
    this.parents.set(uuid, parent)
    if (this.parents.size > REMEMBERED_PARENTS) this.parents.delete(this.parents.keys().next().value!)
  }
}

/**
 * A file whose last line has no newline was cut by a crash: that line was never acknowledged.
 * It is cut off before appending, or the next line would be glued to it and lost as well. A last
 * line that is whole JSON only lost its newline (an editor, a script rewriting the file): the
 * reader took it as a line, so it gets its newline back instead of being cut.
 */
function dropTornTail(fd: number): void {
  const size = fstatSync(fd).size
  if (size === 0) return
  const chunk = Buffer.alloc(64 * 1024)
  let end = size
  let checkedLast = false
  while (end > 0) {
    const start = Math.max(0, end - chunk.length)
    const n = readSync(fd, chunk, 0, end - start, start)
    if (!checkedLast) {
      if (chunk[n - 1] === 0x0a) return
      checkedLast = true
    }
    const at = chunk.subarray(0, n).lastIndexOf(0x0a)
    if (at !== -1) return endTail(fd, start + at + 1, size)
    end = start
  }
  endTail(fd, 0, size)
}

function endTail(fd: number, from: number, size: number): void {
  const tail = Buffer.alloc(size - from)
  readSync(fd, tail, 0, tail.length, from)
  try {
    JSON.parse(tail.toString('utf8'))
    writeSync(fd, '\n')
  } catch {
    ftruncateSync(fd, from)
  }
}
